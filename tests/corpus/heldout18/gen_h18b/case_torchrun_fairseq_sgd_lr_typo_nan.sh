#!/bin/bash
# APPLICATION: torchrun, 2 processes, DDP on gloo, fairseq-style lines; config mistake: SGD with momentum and
# --lr 3.0 (meant 3e-3), no real gradient clipping. The loss diverges; the loop's finiteness check raises
# FloatingPointError when the logged loss is not finite.
CASE=sgd_nan; source "$(dirname "$0")/common.sh"
$TR $G/t18.py --fmt fairseq --optim sgd --lr 3.0 --steps 1000 --log-every 10 --epoch-steps 500 > out.log 2>&1; echo "exit=$?" >&2
