#!/bin/bash
# torchrun 2 ranks, Composer-style console logger; after batch 500 rank 1's training process is SIGSTOPped 0.3 s of
# every 0.4 s (SIGSTOP/SIGCONT duty cycle) until the run ends.
CASE=a02; PORT=41602; source /work/wt30b/tests/corpus/heldout30/gen_h30b/common.sh
(TR $T --style composer --steps 1600 --log-every 100 > out.log 2>&1 &)
waitfor "batch=500/" out.log 300; P=$(rankpid RANK=1); log "duty $P"
while kill -0 $P 2>/dev/null; do kill -STOP $P; sleep 0.3; kill -CONT $P 2>/dev/null; sleep 0.1; done
waitgone 300
