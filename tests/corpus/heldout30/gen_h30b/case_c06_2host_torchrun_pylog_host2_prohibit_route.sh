#!/bin/bash
# two namespace hosts, torchrun --nnodes 2, Python logging, --pg-timeout 60; after step 700 a 'prohibit' route to
# gpu-b30-01 is added on gpu-b30-02 (sends fail with EACCES locally).
CASE=c06; PORT=41686; source /work/wt30b/tests/corpus/heldout30/gen_h30b/common.sh; source $G/net30.sh; netdown; netup
(TR2 1 $T --style pylog --steps 3000 --log-every 50 --pg-timeout 60 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style pylog --steps 3000 --log-every 50 --pg-timeout 60 >> out.log 2>&1 &)
waitfor "step 700/" out.log 400; ip -n l30bh2 route add prohibit 10.230.7.11/32; log prohibit
waitgone 110; sleep 10; for p in $(agentpids); do kill $p; done; sleep 5; for p in $(agentpids) $(mypids); do kill -9 $p; done; netdown
