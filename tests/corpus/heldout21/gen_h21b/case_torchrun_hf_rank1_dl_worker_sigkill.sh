#!/bin/bash
# CRASH (no cause shown): torchrun 2 ranks, HF-Trainer-like dict lines + tqdm bar, 2 DataLoader workers per rank;
# after step 160 one DataLoader worker process of rank 1 gets SIGKILL from outside (no OOM: standing in for a
# worker killed by something the log does not show).
CASE=tr_dl_kill; source "$(dirname "$0")/common.sh"
$TR $T21 --fmt hf --steps 600 --log-every 20 --workers 2 --ckpt-every 100 --ckpt-dir $RUN/ckpt > out.log 2>&1 &
waitfor "'epoch': 0.8" out.log 400
R1=$(envpids "t21.py" RANK=1 | head -1)
# the rank's DataLoader workers are its children running the same python
W=$(pgrep -P $(envpids "t21.py" RANK=1 | tr '\n' ',' | sed 's/,$//') -f t21.py | head -1)
echo "rank1 pids $(envpids t21.py RANK=1 | tr '\n' ' ') worker $W $(date +%T)" >&2
kill -9 $W
wait; echo "exit=$?" >&2
