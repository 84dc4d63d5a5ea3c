#!/bin/bash
# two namespace hosts, torchrun --nnodes 2, Keras-like, --pg-timeout 60; after epoch 4 host 1's veth is set down and left down.
CASE=f03; PORT=39683; source /work/wt28b/tests/corpus/heldout28/gen_h28b/common.sh; source $G/net28.sh; netdown; netup
(TR2 1 $T --style keras --steps 3000 --epoch-steps 200 --pg-timeout 60 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style keras --steps 3000 --epoch-steps 200 --pg-timeout 60 >> out.log 2>&1 &)
waitfor "^Epoch 5/" out.log 400; ip -n l28bh1 link set l28bv1 down; log down
waitgone 400; log gone; sleep 60; for p in $(agentpids); do kill $p; done; sleep 3; netdown
