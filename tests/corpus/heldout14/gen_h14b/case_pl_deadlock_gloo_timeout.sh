#!/bin/bash
# HANG: Lightning DDP with DDPStrategy(timeout=150 s); at batch 300 rank 1 deadlocks on two Python locks
# (thread-ordering bug, no message); rank 0 waits in the next gradient allreduce until gloo times out.
CASE=pl_deadlock_gloo_timeout; . "$(dirname "$0")/common.sh"
$TR $G/pl14.py --max-steps 800 --val-every 200 --ckpt-monitor val_loss --log-every 50 --deadlock-at 300 --pg-timeout 150 > out.log 2>&1; echo "rc=$?" > rc.txt
