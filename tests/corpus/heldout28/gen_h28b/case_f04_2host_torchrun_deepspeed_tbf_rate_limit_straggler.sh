#!/bin/bash
# two namespace hosts, torchrun --nnodes 2, DeepSpeed-like from both ranks; after step 500 host 2's egress is limited by
# tc tbf (rate 60mbit) until the run ends.
CASE=f04; PORT=39684; source /work/wt28b/tests/corpus/heldout28/gen_h28b/common.sh; source $G/net28.sh; netdown; netup
(TR2 1 $T --style deepspeed --steps 1100 --log-every 50 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style deepspeed --steps 1100 --log-every 50 >> out.log 2>&1 &)
waitfor "step=500," out.log 400; ip netns exec l28bh2 tc qdisc add dev l28bv2 root tbf rate 60mbit burst 32kbit latency 400ms; log tbf
waitgone 500; sleep 3; netdown
