#!/bin/bash
# two namespace hosts, torchrun --nnodes 2, OLMo-style; after step 1200 gpu-b32-02's veth egress is shaped with
# 'tc qdisc add dev l32bv2 root tbf rate 100mbit burst 32kbit latency 400ms' until the end.
CASE=c01; PORT=43681; source /work/wt32b/tests/corpus/heldout32/gen_h32b/common.sh; source $G/net32.sh; netdown; netup
(TR2 1 $T --style olmo --steps 2600 --log-every 100 --eval-every 1000 --ckpt-dir ckpt --ckpt-every 1000 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style olmo --steps 2600 --log-every 100 --eval-every 1000 --ckpt-dir ckpt --ckpt-every 1000 >> out.log 2>&1 &)
waitfor "\[step=1200/" out.log 400; ip netns exec l32bh2 tc qdisc add dev l32bv2 root tbf rate 100mbit burst 32kbit latency 400ms; log tbf
waitgone 500; ip netns exec l32bh2 tc -s qdisc show dev l32bv2; sleep 3; for p in $(agentpids); do kill $p; done; netdown
