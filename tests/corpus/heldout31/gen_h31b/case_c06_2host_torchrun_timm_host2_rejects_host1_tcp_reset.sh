#!/bin/bash
# two namespace hosts, torchrun --nnodes 2, timm train.py style, --pg-timeout 60; in epoch 4 gpu-b31-02's firewall
# starts rejecting every TCP segment from gpu-b31-01 with a reset (iptables REJECT --reject-with tcp-reset).
CASE=c06; PORT=42686; source /work/wt31b/tests/corpus/heldout31/gen_h31b/common.sh; source $G/net31.sh; netdown; netup
(TR2 1 $T --style timm --steps 4992 --log-every 52 --pg-timeout 60 --eval-every 1 --ckpt-dir output --ckpt-every 1248 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style timm --steps 4992 --log-every 52 --pg-timeout 60 --eval-every 1 --ckpt-dir output --ckpt-every 1248 >> out.log 2>&1 &)
waitfor "Train: 4 \[ 156/" out.log 400; ip netns exec l31bh2 iptables -A INPUT -p tcp -s 10.231.7.11 -j REJECT --reject-with tcp-reset; log reject
waitgone 200; sleep 20; for p in $(agentpids); do kill $p; done; sleep 5; for p in $(agentpids) $(mypids); do kill -9 $p; done; netdown
