#!/bin/bash
# UNKNOWN: Lightning DDP run under torchrun; rank 0 is SIGKILLed from outside during training after step 250
# (no message in the log says why, no OOM report).
CASE=pl_rank0_sigkill; . "$(dirname "$0")/common.sh"
$TR $G/pl14.py --max-steps 1200 --val-every 200 --ckpt-monitor val_loss --log-every 50 > out.log 2>&1 &
waitfor "step=250 " out.log 120; sleep 0.5; kill -KILL $(rankpid pl14.py 0)
wait; echo "rc=$?" > rc.txt
