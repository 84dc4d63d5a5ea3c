#!/bin/bash
# two namespace hosts, torchrun --nnodes 2, Composer-style; after batch 500 the worker on gpu-b30-02 is SIGSTOPped 0.3 s
# of every 0.4 s until the run ends.
CASE=c05; PORT=41685; source /work/wt30b/tests/corpus/heldout30/gen_h30b/common.sh; source $G/net30.sh; netdown; netup
(TR2 1 $T --style composer --steps 1500 --log-every 100 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style composer --steps 1500 --log-every 100 >> out.log 2>&1 &)
waitfor "batch=500/" out.log 400; P=$(rankpid RANK=1); log "duty $P"
while kill -0 $P 2>/dev/null; do kill -STOP $P; sleep 0.3; kill -CONT $P 2>/dev/null; sleep 0.1; done
waitgone 300; sleep 3; for p in $(agentpids); do kill $p; done; netdown
