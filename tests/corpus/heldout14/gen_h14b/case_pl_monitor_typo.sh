#!/bin/bash
# APPLICATION: ModelCheckpoint(monitor="val/loss") while the module logs "val_loss": Lightning raises a
# MisconfigurationException at the first checkpoint after validation (step 100).
CASE=pl_monitor_typo; . "$(dirname "$0")/common.sh"
$TR $G/pl14.py --max-steps 400 --val-every 100 --ckpt-monitor val/loss --bar > out.log 2>&1; echo "rc=$?" > rc.txt
