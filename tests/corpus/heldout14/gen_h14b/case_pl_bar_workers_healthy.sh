#!/bin/bash
# NONE: Lightning DDP run with the tqdm progress bar, 2 DataLoader workers per rank, validation and
# checkpoints every 150 steps; nothing injected.
CASE=pl_bar_workers_healthy; . "$(dirname "$0")/common.sh"
$TR $G/pl14.py --max-steps 600 --val-every 150 --ckpt-monitor val_loss --bar --workers 2 --log-every 50 > out.log 2>&1; echo "rc=$?" > rc.txt
