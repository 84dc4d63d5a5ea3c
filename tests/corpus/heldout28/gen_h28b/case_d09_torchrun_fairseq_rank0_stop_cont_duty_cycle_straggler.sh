#!/bin/bash
# torchrun 2 ranks, fairseq-like; after update 600 rank 0 is SIGSTOPped 0.3 s out of every 0.4 s until the run ends.
CASE=d09; PORT=39609; source /work/wt28b/tests/corpus/heldout28/gen_h28b/common.sh
(TR $T --style fairseq --steps 1500 --log-every 50 > out.log 2>&1 &)
waitfor "num_updates=600," out.log 400; P=$(rankpid RANK=0); log "duty $P"
while kill -0 $P 2>/dev/null; do kill -STOP $P; sleep 0.3; kill -CONT $P 2>/dev/null; sleep 0.1; done; waitgone 100
