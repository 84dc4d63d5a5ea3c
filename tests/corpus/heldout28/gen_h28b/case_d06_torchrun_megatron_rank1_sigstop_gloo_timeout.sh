#!/bin/bash
# torchrun 2 ranks, Megatron-like, --pg-timeout 60; rank 1 SIGSTOPped after iteration 800 -> rank 0's gloo collective
# times out; torchrun then stops the workers (rank 1 is SIGCONTed after the timeout shows, to let it be reaped).
CASE=d06; PORT=39606; source /work/wt28b/tests/corpus/heldout28/gen_h28b/common.sh
(TR $T --style megatron --steps 3000 --log-every 50 --pg-timeout 60 > out.log 2>&1 &)
waitfor "iteration      800/" out.log 400; P=$(rankpid RANK=1); kill -STOP $P; log "stopped $P"
waitfor "Timed out\|timed out\|timeout" out.log 300; log "timeout shown"; sleep 20; kill -CONT $P 2>/dev/null; waitgone 200
