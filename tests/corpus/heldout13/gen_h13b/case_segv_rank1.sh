#!/bin/bash
# UNKNOWN: rank 1 gets SIGSEGV from outside at step ~350 (no message from the rank itself), JSON-lines metrics.
CASE=segv_rank1; . "$(dirname "$0")/common.sh"
$TR $G/lm13.py --steps 1000 --log-every 50 --jsonl --ckpt-every 250 > out.log 2>&1 & L=$!
$G/waitstep.sh '"step": 350,' 120 && kill -SEGV $($G/rankpid.sh 1)
wait $L; echo "rc=$?" > rc.txt
