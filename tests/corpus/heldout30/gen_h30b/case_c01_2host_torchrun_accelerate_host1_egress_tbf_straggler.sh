#!/bin/bash
# two namespace hosts, torchrun --nnodes 2, Accelerate-logger style; after step 500 gpu-b30-01's egress is rate limited
# with tc tbf (rate 40mbit) until the run ends.
CASE=c01; PORT=41681; source /work/wt30b/tests/corpus/heldout30/gen_h30b/common.sh; source $G/net30.sh; netdown; netup
(TR2 1 $T --style accelerate --steps 1400 --log-every 50 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style accelerate --steps 1400 --log-every 50 >> out.log 2>&1 &)
waitfor "step 500:" out.log 400; ip netns exec l30bh1 tc qdisc add dev l30bv1 root tbf rate 40mbit burst 32kbit latency 400ms; log tbf
waitgone 500; sleep 3; for p in $(agentpids); do kill $p; done; netdown
