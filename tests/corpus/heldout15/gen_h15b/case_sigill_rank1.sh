#!/bin/bash
# UNKNOWN: rank 1 is sent SIGILL (illegal instruction) at step 70; no message from the rank itself. torchrun, timm-style.
CASE=sigill_rank1; source "$(dirname "$0")/common.sh"
$TR $G/t15.py --data $DATA --fmt timm --hidden 192 --steps 600 --log-every 10 > out.log 2>&1 &
waitfor "\[  70/600" out.log 150 && kill -ILL $(rankpid t15.py 1)
wait %1
echo "exit=$?" >&2
