#!/bin/bash
# NONE: fp16 autocast + GradScaler (init scale 2^24) on CPU with ZeroRedundancyOptimizer and persistent
# DataLoader workers: the first steps overflow and are skipped while the loss scale comes down, then it trains.
CASE=amp_overflow_healthy; . "$(dirname "$0")/common.sh"
$TR $G/loop14.py --steps 300 --amp-fp16 --zero --workers 2 --persistent --log-every 25 --eval-every 150 --ckpt-every 150 > out.log 2>&1; echo "rc=$?" > rc.txt
