#!/bin/bash
# SCHEDULER: like `sbatch --signal=USR1@90`: at step ~450 both ranks get SIGUSR1 (the time-limit
# warning); the handler saves a checkpoint and exits cleanly asking for a requeue.
CASE=usr1_timelimit_ckpt; . "$(dirname "$0")/common.sh"
$TR $G/lm13.py --steps 2000 --log-every 50 --jsonl --ckpt-every 300 --usr1-ckpt > out.log 2>&1 & L=$!
$G/waitstep.sh '"step": 450,' 120 && kill -USR1 $($G/rankpid.sh 0) $($G/rankpid.sh 1)
wait $L; echo "rc=$?" > rc.txt
