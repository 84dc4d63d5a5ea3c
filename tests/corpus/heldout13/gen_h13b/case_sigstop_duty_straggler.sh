#!/bin/bash
# STRAGGLER: from step 250 rank 1 is throttled externally by a SIGSTOP/SIGCONT duty cycle
# (stopped 150 ms of every 250 ms, like a cpulimit-style throttle) until the run ends.
CASE=sigstop_duty_straggler; . "$(dirname "$0")/common.sh"
$TR $G/lm13.py --steps 700 --log-every 25 > out.log 2>&1 & L=$!
$G/waitstep.sh "step   250/" 120; P=$($G/rankpid.sh 1)
while kill -0 $P 2>/dev/null; do kill -STOP $P; sleep 0.15; kill -CONT $P; sleep 0.1; done &
wait $L; echo "rc=$?" > rc.txt
