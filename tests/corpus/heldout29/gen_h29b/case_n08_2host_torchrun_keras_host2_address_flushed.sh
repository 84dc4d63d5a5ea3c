#!/bin/bash
# two namespace hosts, torchrun --nnodes 2, Keras-like, --pg-timeout 60; after epoch 3 gpu-b29-02's address is removed
# from its veth ('ip addr flush dev l29bv2'; the link stays up) and not restored.
CASE=n08; PORT=40688; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh; source $G/net29.sh; netdown; netup
(TR2 1 $T --style keras --steps 3000 --epoch-steps 150 --pg-timeout 60 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style keras --steps 3000 --epoch-steps 150 --pg-timeout 60 >> out.log 2>&1 &)
waitfor "Epoch 4/" out.log 400; ip -n l29bh2 addr flush dev l29bv2; log flushed
waitgone 300; log gone; sleep 30; for p in $(agentpids); do kill $p; done; sleep 5; for p in $(mypids); do kill -9 $p; done; netdown
