#!/bin/bash
# two namespace hosts, Horovod-style, --pg-timeout 60; before the start gpu-b32-01 answers every TCP segment from
# gpu-b32-02 to any port except the rendezvous port 43685 with a reset: rendezvous works, gloo's full mesh cannot connect.
CASE=c05; PORT=43685; source /work/wt32b/tests/corpus/heldout32/gen_h32b/common.sh; source $G/net32.sh; netdown; netup
ip netns exec l32bh1 iptables -A INPUT -s 10.232.7.12 -p tcp ! --dport $PORT -j REJECT --reject-with tcp-reset
(TR2 1 $T --style horovod --steps 3000 --epoch-steps 400 --log-every 50 --eval-every 1 --ckpt-dir ckpt --ckpt-every 800 --pg-timeout 60 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style horovod --steps 3000 --epoch-steps 400 --log-every 50 --eval-every 1 --ckpt-dir ckpt --ckpt-every 800 --pg-timeout 60 >> out.log 2>&1 &)
sleep 10; waitgone 300; ip netns exec l32bh1 iptables -L INPUT -n -v; sleep 5; for p in $(agentpids); do kill $p; done; sleep 3; for p in $(agentpids); do kill -9 $p; done; netdown
