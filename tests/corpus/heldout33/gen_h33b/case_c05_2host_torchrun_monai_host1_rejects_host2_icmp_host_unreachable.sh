#!/bin/bash
# two namespace hosts, MONAI-style, --pg-timeout 60: in epoch 3 gpu-b33-01 rejects every packet from gpu-b33-02 with
# ICMP host-unreachable (iptables REJECT --reject-with icmp-host-unreachable).
CASE=c05; PORT=44685; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh; source $G/net33.sh; netdown; netup
(TR2 1 $T --style monai --steps 4000 --epoch-steps 400 --log-every 50 --eval-every 1 --ckpt-dir runs --ckpt-every 800 --pg-timeout 60 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style monai --steps 4000 --epoch-steps 400 --log-every 50 --eval-every 1 --ckpt-dir runs --ckpt-every 800 --pg-timeout 60 >> out.log 2>&1 &)
waitfor "Epoch: 3/10, Iter: 100/" out.log 400; ip netns exec l33bh1 iptables -A INPUT -s 10.233.7.12 -j REJECT --reject-with icmp-host-unreachable; log reject
waitgone 300; ip netns exec l33bh1 iptables -L INPUT -n -v; sleep 5; for p in $(agentpids); do kill $p; done; sleep 3; for p in $(agentpids); do kill -9 $p; done; netdown
