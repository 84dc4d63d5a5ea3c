#!/bin/bash
# NONE: DeepSpeed ZeRO-1 on the CPU accelerator (deepspeed launcher), flops profiler at step 20, checkpoints every 60
# steps, DeepSpeed logger at INFO; nothing injected (noise: scheduler warning, FutureWarnings, profiler tables).
CASE=ds_flops_healthy; source "$(dirname "$0")/common.sh"
export DS_ACCELERATOR=cpu
nice -n 10 $V/deepspeed --num_gpus 2 $G/ds16.py --steps 180 --print-every 30 --flops-profile-step 20 --save-every 60 > out.log 2>&1; echo "exit=$?" >&2
