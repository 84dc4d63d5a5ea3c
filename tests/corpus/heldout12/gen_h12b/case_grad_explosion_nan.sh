#!/bin/bash
# FSDP2 run with SGD (momentum 0.9) at a far too high learning rate and clipping effectively off (max_norm 1e9),
# linear warmup over 150 steps to lr 60; no anomaly detection; the script stops when the logged loss is NaN.
CASE=grad_explosion_nan; . "$(dirname "$0")/common.sh"
$TITAN --steps 300 --log-freq 5 --optim sgd --lr 60 --warmup 150 --max-norm 1e9 --fail-on-nan > out.log 2>&1
echo "rc=$?" > rc.txt
