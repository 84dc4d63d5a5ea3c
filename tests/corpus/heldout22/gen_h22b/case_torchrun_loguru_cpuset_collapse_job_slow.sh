#!/bin/bash
# torchrun 2 ranks, loguru; after step 600 both ranks (and their threads) are pinned to CPU 0 with taskset -a
# (a misapplied cpuset), halving the job's throughput until the end.
CASE=torchrun_loguru_cpuset; source /work/wt22b/tests/corpus/heldout22/gen_h22b/common.sh
$TR $T22 --fmt loguru --steps 2400 --log-every 50 --ckpt-dir ck --ckpt-every 600 > out.log 2>&1 &
waitfor "step 600/" out.log; for p in $(envpids t22.py RANK=0) $(envpids t22.py RANK=1); do taskset -a -p -c 0 $p >/dev/null; done; echo "pinned $(date -u +%T)"
wait; echo exit=$?
