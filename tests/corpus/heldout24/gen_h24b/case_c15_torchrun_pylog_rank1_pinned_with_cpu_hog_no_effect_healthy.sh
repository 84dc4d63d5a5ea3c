#!/bin/bash
# RESULT: under this VM's load the hog had no visible effect; the log is kept as a healthy run (../h24b_torchrun-python-logging-per-rank-step-times-steady-completes-healthy.log, copied from /work/lab24b/c15_keep).
# torchrun 2 ranks, Python-logging style with per-rank compute/comm times; after step ~800 rank 1 is pinned to CPU 1
# (taskset) and a busy loop at nice -5 is pinned to CPU 1 too: rank 1's compute slows, rank 0 waits in comm.
CASE=c15; source /work/wt24b/tests/corpus/heldout24/gen_h24b/common.sh
$TR $T24 --fmt pylog --steps 2400 --log-every 100 --ckpt-dir ck --ckpt-every 800 > out.log 2>&1 &
TRP=$!
waitfor "step 800/" out.log; P=$(envpids RANK=1); taskset -a -p -c 1 $P >/dev/null
(exec nice -n -5 taskset -c 1 python3 -c 'while True: pass') & HP=$!; echo "pinned $P hog $HP $(date -u +%T)"
wait $TRP; echo "exit=$?"; kill $HP
