#!/bin/bash
# two namespace hosts, torchrun --nnodes 2, Levanter-style; after step 1500 gpu-b31-02 drops 5% of the packets it
# receives from gpu-b31-01 at random (iptables statistic match, the netem-less way to lose packets) until the end.
CASE=c01; PORT=42681; source /work/wt31b/tests/corpus/heldout31/gen_h31b/common.sh; source $G/net31.sh; netdown; netup
(TR2 1 $T --style levanter --steps 4000 --log-every 100 --eval-every 1000 --ckpt-dir ckpt --ckpt-every 1000 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style levanter --steps 4000 --log-every 100 --eval-every 1000 --ckpt-dir ckpt --ckpt-every 1000 >> out.log 2>&1 &)
waitfor "Progress on:train 1500it" out.log 400; ip netns exec l31bh2 iptables -A INPUT -s 10.231.7.11 -m statistic --mode random --probability 0.05 -j DROP; log drop
waitgone 560; ip netns exec l31bh2 iptables -L INPUT -n -v; sleep 3; for p in $(agentpids); do kill $p; done; netdown
