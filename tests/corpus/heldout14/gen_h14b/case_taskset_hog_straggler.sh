#!/bin/bash
# STRAGGLER: srun -l style; rank 0 pinned to CPU 0 and rank 1 to CPU 1 (taskset); after step 200 a
# CPU-bound process at nice 0 (another tenant's job) starts on CPU 1 and keeps running: rank 1 gets a
# fraction of its core for the rest of the run. The loop prints per-rank forward times.
CASE=taskset_hog_straggler; . "$(dirname "$0")/common.sh"
for r in 0 1; do ( MASTER_ADDR=127.0.0.1 MASTER_PORT=29715 RANK=$r LOCAL_RANK=$r WORLD_SIZE=2 \
  taskset -c $r nice -n 10 $V/python -u $G/loop14.py --steps 700 --per-rank-times --log-every 25 --ckpt-every 200 2>&1 | sed -u "s/^/$r: /" >> out.log ) & done
waitfor "step 200/700" out.log 120
taskset -c 1 python3 -c 'while True: pass' & H=$!
wait $(jobs -p | grep -v $H) 2>/dev/null; sleep 1; while pgrep -f "loop14.py --steps 700" >/dev/null; do sleep 2; done; kill $H; echo "rc=done" > rc.txt
