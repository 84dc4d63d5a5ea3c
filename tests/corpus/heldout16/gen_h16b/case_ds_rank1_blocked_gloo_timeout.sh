#!/bin/bash
# HANG: DeepSpeed ZeRO-1 (deepspeed launcher, process-group timeout 60 s via deepspeed.init_distributed). Rank 1
# blocks forever (sleep loop) before step 120, as if stuck on a data read; rank 0 waits in the gradient all-reduce.
CASE=ds_blocked; source "$(dirname "$0")/common.sh"
export DS_ACCELERATOR=cpu
nice -n 10 $V/deepspeed --num_gpus 2 $G/ds16.py --steps 400 --print-every 20 --block-at 120 --timeout 60 > out.log 2>&1; echo "exit=$?" >&2
