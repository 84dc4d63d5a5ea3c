#!/bin/bash
# NONE (intended): torchrun --max-restarts 2; rank 1 is SIGKILLed after step 150; torchrun restarts the
# worker group, which resumes from the step-100 checkpoint and finishes.
CASE=elastic_restart_ok; . "$(dirname "$0")/common.sh"
$TR --max-restarts 2 $G/loop14.py --steps 400 --resume --log-every 25 --ckpt-every 100 > out.log 2>&1 &
waitfor "step 150/400" out.log 120; kill -KILL $(rankpid loop14.py 1); wait; echo "rc=$?" > rc.txt
