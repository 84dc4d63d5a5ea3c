#!/bin/bash
# SCHEDULER: the run is launched with `accelerate launch --multi_gpu --num_processes 2`; at step 1000 the launcher
# gets SIGTERM, as a batch system's time limit / scancel delivers it. timm-style lines.
CASE=accel_sigterm; source "$(dirname "$0")/common.sh"
nice -n 10 $V/accelerate launch --multi_gpu --num_processes 2 --num_machines 1 --mixed_precision no --dynamo_backend no \
  --main_process_port 29835 $G/t15.py --data $DATA --fmt timm --steps 3000 --log-every 50 > out.log 2>&1 &
L=$!
waitfor "\[1000/3000" out.log 150 && kill -TERM $L
wait $L
echo "exit=$?" >&2
