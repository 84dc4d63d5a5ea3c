#!/bin/bash
# SCHEDULER: the job's launcher (torchrun agent) gets SIGTERM at step ~400, as when Slurm cancels /
# preempts the step; the training script has no signal handler and no checkpoint-on-signal.
CASE=sigterm_agent_pipe; . "$(dirname "$0")/common.sh"
$TR $G/lm13.py --mode pipe --layers 4 --steps 2000 --log-every 50 > out.log 2>&1 & L=$!
$G/waitstep.sh "step   400/" 150 && kill -TERM $(pgrep -f "torchrun.*lm13" | head -1)
wait $L; echo "rc=$?" > rc.txt
