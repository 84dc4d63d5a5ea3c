#!/bin/bash
# SCHEDULER: Lightning DDP under torchrun; after step 300 both worker processes get SIGUSR1 (as Slurm's
# --signal=USR1@<time> warning before the time limit delivers it to the job's processes) and there is
# no handler for it, so they die of the signal.
CASE=pl_sigusr1_no_handler; . "$(dirname "$0")/common.sh"
$TR $G/pl14.py --max-steps 3000 --val-every 500 --ckpt-monitor val_loss --log-every 50 > out.log 2>&1 &
waitfor "step=300 " out.log 120; kill -USR1 $(rankpid pl14.py 0) $(rankpid pl14.py 1)
wait; echo "rc=$?" > rc.txt
