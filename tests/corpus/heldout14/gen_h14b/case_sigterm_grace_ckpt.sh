#!/bin/bash
# SCHEDULER: srun -l style launch; both ranks get SIGTERM (as Slurm sends at the time limit / preemption)
# at ~step 200; the handler flags it, ranks agree at the next step, save a checkpoint and exit 0.
CASE=sigterm_grace_ckpt; . "$(dirname "$0")/common.sh"
srunl $G/loop14.py --steps 2000 --sigterm-ckpt --log-every 25 --ckpt-every 100 --img 48 &
waitfor "step 200/2000" out.log 120; kill -TERM $(rankpid loop14.py 0) $(rankpid loop14.py 1); wait; echo "rc=$?" > rc.txt
