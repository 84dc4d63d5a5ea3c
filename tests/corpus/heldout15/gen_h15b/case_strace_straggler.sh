#!/bin/bash
# STRAGGLER: after 12 metric rows (step 480), `strace -f` (output discarded) is attached to rank 1, which reads its samples with
# 2-byte unbuffered reads in the main process, so every syscall of rank 1 is traced and it slows down for the rest of
# the run. torchrun, CSV metrics with per-rank data-fetch time.
CASE=strace_straggler; source "$(dirname "$0")/common.sh"
$TR $G/t15.py --data $DATA --steps 1200 --log-every 40 --hidden 192 --workers 0 --chunk 2 --per-rank > out.log 2>&1 &
waitfor "^480," out.log 150 && P=$(rankpid t15.py 1) && { strace -f -qq -o /dev/null -p $P & ST=$!; }
wait %1; kill $ST 2>/dev/null
echo "exit=$?" >&2
