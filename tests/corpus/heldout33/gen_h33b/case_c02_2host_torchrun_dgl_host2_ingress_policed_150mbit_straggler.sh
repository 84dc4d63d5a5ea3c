#!/bin/bash
# two namespace hosts, DGL-dist-style: after epoch 2 gpu-b33-02 polices its ingress from gpu-b33-01 to 150 mbit/s
# (tc ingress qdisc + u32 filter, police ... drop), to the end.
CASE=c02; PORT=44682; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh; source $G/net33.sh; netdown; netup
(TR2 1 $T --style dgl --steps 3200 --epoch-steps 400 --log-every 100 --eval-every 1 --ckpt-dir ckpt --ckpt-every 800 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style dgl --steps 3200 --epoch-steps 400 --log-every 100 --eval-every 1 --ckpt-dir ckpt --ckpt-every 800 >> out.log 2>&1 &)
waitfor "Epoch 00002 | Step 00100" out.log 400
ip netns exec l33bh2 tc qdisc add dev l33bv2 handle ffff: ingress
ip netns exec l33bh2 tc filter add dev l33bv2 parent ffff: protocol ip u32 match ip src 10.233.7.11/32 police rate 150mbit burst 256k drop flowid :1; log police
ip netns exec l33bh2 tc -s filter show dev l33bv2 parent ffff:
waitgone 500; ip netns exec l33bh2 tc -s filter show dev l33bv2 parent ffff:; sleep 5; for p in $(agentpids); do kill $p; done; sleep 3; for p in $(agentpids); do kill -9 $p; done; netdown
