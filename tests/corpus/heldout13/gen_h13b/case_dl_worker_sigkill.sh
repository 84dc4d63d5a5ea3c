#!/bin/bash
# UNKNOWN: 2 DataLoader workers per rank; at step ~300 one of rank 0's workers is SIGKILLed from
# outside (no reason given in the log).
CASE=dl_worker_sigkill; . "$(dirname "$0")/common.sh"
$TR $G/lm13.py --steps 900 --log-every 25 --workers 2 > out.log 2>&1 & L=$!
$G/waitstep.sh "step   300/" 120 && kill -KILL $($G/rankpid.sh 0 worker)
wait $L; echo "rc=$?" > rc.txt
