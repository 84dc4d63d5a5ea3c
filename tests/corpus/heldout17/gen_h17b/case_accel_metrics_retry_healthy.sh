#!/bin/bash
# NONE: torchrun, 2 processes, Accelerate custom loop, 400 steps, accelerator.save_state every 200 steps; rank 0 pushes metrics every
# 100 steps to a port where nothing listens: each push fails (connection refused), is retried twice, then skipped with
# a warning, and training goes on to the end. No fault in the training itself.
CASE=accel_metrics_retry; source "$(dirname "$0")/common.sh"
$TR \
  $G/a17.py --steps 400 --log-every 25 --save-every 200 --push-metrics-port 39997 --push-every 100 > out.log 2>&1
echo "exit=$?" >&2
