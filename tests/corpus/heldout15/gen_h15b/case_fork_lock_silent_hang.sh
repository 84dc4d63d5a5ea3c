#!/bin/bash
# HANG (silent): a stats thread holds the dataset's lock when the epoch-1 DataLoader worker is forked, so the worker
# deadlocks on its first sample; rank 0 waits in the gradient all-reduce (gloo, default 30 min timeout). The run is left
# silent for 170 s after the last line, then killed with SIGKILL (no output). srun -l style, timm-style lines.
CASE=fork_lock_silent_hang; source "$(dirname "$0")/common.sh"
PORT=29855 srunl $G/t15.py --data $DATA --fmt timm --steps 300 --log-every 5 --epoch-len 1600 --stats-thread &
waitfor "\[  50/300" out.log 150
n=0; while [ $n -lt 170 ]; do s1=$(stat -c %s out.log); sleep 5; n=$((n+5)); [ "$(stat -c %s out.log)" = "$s1" ] || n=0; done
for r in 0 1; do P=$(rankpid t15.py $r); kill -9 $(workerpids $P) $P; done
wait
echo "exit=$?" >&2
