#!/bin/bash
# torchrun --nnodes 2 on two namespace hosts, Megatron-style (rank 0 prints); after iteration 800 host 2's veth gets
# 'tc qdisc add ... tbf rate 150mbit' (its link throttled) until the run ends.
CASE=c22; source /work/wt26b/tests/corpus/heldout26/gen_h26b/common.sh; source /work/wt26b/tests/corpus/heldout26/gen_h26b/net26.sh
netdown; netup
(TR2 1 $T26 --style megatron --steps 2000 --log-every 100 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T26 --style megatron --steps 2000 --log-every 100 >> out.log 2>&1 &)
waitfor "iteration      800/" out.log 300
ip netns exec l26bh2 tc qdisc add dev l26bv2 root tbf rate 150mbit burst 64kb latency 200ms; log tbf
for i in $(seq 1 200); do pgrep -f "rdzv-id l26bjob" >/dev/null || break; sleep 2; done; sleep 2
netdown
