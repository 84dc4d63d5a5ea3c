#!/bin/bash
# NONE: healthy run launched with `accelerate launch` (its launch-time warnings), CSV metrics, checkpoints every 60 steps.
CASE=accel_healthy; source "$(dirname "$0")/common.sh"
nice -n 10 $V/accelerate launch --multi_gpu --num_processes 2 --main_process_port 29845 \
  $G/t15.py --data $DATA --steps 180 --log-every 10 --ckpt-every 60 > out.log 2>&1
echo "exit=$?" >&2
