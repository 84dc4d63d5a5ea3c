#!/bin/bash
# torchrun 2 ranks, Nanotron-style; rank 1 sent SIGTRAP from outside after iteration 2000.
CASE=a17; PORT=43617; source /work/wt32b/tests/corpus/heldout32/gen_h32b/common.sh
(TR $T --style nanotron --steps 5000 --log-every 100 --eval-every 2500 --ckpt-dir checkpoints --ckpt-every 1000 > out.log 2>&1 &)
waitfor "iteration: 2000 /" out.log 300; P1=$(rankpid RANK=1); kill -TRAP $P1; log "trap $P1"
waitgone 200
