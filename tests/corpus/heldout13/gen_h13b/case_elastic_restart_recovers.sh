#!/bin/bash
# Rank 1 SIGKILLed once at step ~500 under torchrun --max-restarts 1 (meant as a recovering restart; the
# restarted round failed to connect its gloo mesh, so the job failed: kept as an UNKNOWN crash).
CASE=elastic_restart_recovers; . "$(dirname "$0")/common.sh"
TR1=${TR/--nproc-per-node 2/--nproc-per-node 2 --max-restarts 1}
$TR1 $G/lm13.py --steps 1400 --log-every 50 --ckpt-every 200 --resume > out.log 2>&1 & L=$!
$G/waitstep.sh "step   500/" 120 && kill -KILL $($G/rankpid.sh 1)
wait $L; echo "rc=$?" > rc.txt
