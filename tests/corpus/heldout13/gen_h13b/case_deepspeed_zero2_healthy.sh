#!/bin/bash
# Healthy: DeepSpeed ZeRO-2 on the CPU accelerator (gloo), torchrun 2 ranks, engine checkpoints every
# 200 steps. DeepSpeed logger at INFO; no fault.
CASE=deepspeed_zero2_healthy; . "$(dirname "$0")/common.sh"
DS_ACCELERATOR=cpu $TR $G/ds_train.py --steps 600 --zero 2 --save-every 200 --ds-log-level info > out.log 2>&1; echo "rc=$?" > rc.txt
