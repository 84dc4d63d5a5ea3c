#!/bin/bash
# two namespace hosts, Gluon/MXNet-style (pg timeout 1800 s), gpu-b33-02's namespace with net.ipv4.tcp_retries2=3:
# after epoch 2 gpu-b33-02 drops everything from gpu-b33-01 (iptables INPUT DROP) -> host 2's TCP gives up on the
# unacknowledged data after ~3 retransmissions (ETIMEDOUT).
CASE=c04; PORT=44684; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh; source $G/net33.sh; netdown; netup
ip netns exec l33bh2 sysctl -w net.ipv4.tcp_retries2=3
(TR2 1 $T --style gluon --steps 4000 --epoch-steps 400 --log-every 100 --eval-every 1 --ckpt-dir params --ckpt-every 800 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style gluon --steps 4000 --epoch-steps 400 --log-every 100 --eval-every 1 --ckpt-dir params --ckpt-every 800 >> out.log 2>&1 &)
waitfor "Epoch\[2\] Batch \[0-100\]" out.log 400; ip netns exec l33bh2 iptables -A INPUT -s 10.233.7.11 -j DROP; log drop
waitgone 300; ip netns exec l33bh2 iptables -L INPUT -n -v; sleep 5; for p in $(agentpids); do kill $p; done; sleep 3; for p in $(agentpids); do kill -9 $p; done; netdown
