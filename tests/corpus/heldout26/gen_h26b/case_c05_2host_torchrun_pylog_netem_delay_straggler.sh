#!/bin/bash
# torchrun --nnodes 2 on two namespace hosts, Python logging with module names; after step 1000 host 2's veth gets
# 'tc qdisc add ... netem delay 40ms' (every packet from trn-b26-02 40 ms late) until the run ends.
CASE=c05; source /work/wt26b/tests/corpus/heldout26/gen_h26b/common.sh; source /work/wt26b/tests/corpus/heldout26/gen_h26b/net26.sh
netdown; netup
(TR2 1 $T26 --style pylog --steps 2600 --log-every 100 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T26 --style pylog --steps 2600 --log-every 100 >> out.log 2>&1 &)
waitfor "rank0\]: step 1000/" out.log 300
ip netns exec l26bh2 tc qdisc add dev l26bv2 root netem delay 40ms; log netem
for i in $(seq 1 200); do pgrep -f "rdzv-id l26bjob" >/dev/null || break; sleep 2; done; sleep 2
netdown
