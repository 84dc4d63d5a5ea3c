#!/bin/bash
# two namespace hosts, torchrun --nnodes 2, MMEngine-like, --pg-timeout 60; after iteration 700 gpu-b29-02's veth MTU
# is lowered to 576 while gpu-b29-01 keeps 1500 (an MTU mismatch): full-size segments to host 2 are dropped silently,
# the allreduce stalls and gloo times out. Left in place until the run ends.
CASE=n01; PORT=40681; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh; source $G/net29.sh; netdown; netup
(TR2 1 $T --style mmengine --steps 2400 --log-every 50 --pg-timeout 60 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style mmengine --steps 2400 --log-every 50 --pg-timeout 60 >> out.log 2>&1 &)
waitfor "Iter(train) \[ 700/" out.log 400; ip -n l29bh2 link set l29bv2 mtu 576; log mtu
waitgone 400; log gone; sleep 30; for p in $(agentpids); do kill $p; done; sleep 3; netdown
