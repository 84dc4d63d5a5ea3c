#!/bin/bash
# two namespace hosts, PaddleNLP-style; after step 1000 gpu-b32-01 answers every TCP segment from gpu-b32-02 to the
# rendezvous/store port 43683 with a reset (iptables REJECT --reject-with tcp-reset); gloo's data ports are untouched.
CASE=c03; PORT=43683; source /work/wt32b/tests/corpus/heldout32/gen_h32b/common.sh; source $G/net32.sh; netdown; netup
(TR2 1 $T --style paddle --steps 5000 --log-every 100 --eval-every 1000 --ckpt-dir checkpoints --ckpt-every 1000 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style paddle --steps 5000 --log-every 100 --eval-every 1000 --ckpt-dir checkpoints --ckpt-every 1000 >> out.log 2>&1 &)
waitfor "global_step: 1000," out.log 400; ip netns exec l32bh1 iptables -A INPUT -s 10.232.7.12 -p tcp --dport $PORT -j REJECT --reject-with tcp-reset; log reject
waitgone 300; ip netns exec l32bh1 iptables -L INPUT -n -v; sleep 5; for p in $(agentpids); do kill $p; done; sleep 3; for p in $(agentpids); do kill -9 $p; done; netdown
