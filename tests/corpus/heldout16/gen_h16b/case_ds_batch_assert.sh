#!/bin/bash
# APPLICATION: DeepSpeed config with train_batch_size 48 while micro batch 16 x grad-acc 1 x 2 ranks = 32.
CASE=ds_batch_assert; source "$(dirname "$0")/common.sh"
export DS_ACCELERATOR=cpu
nice -n 10 $V/deepspeed --num_gpus 2 $G/ds16.py --steps 200 --train-batch 48 > out.log 2>&1; echo "exit=$?" >&2
