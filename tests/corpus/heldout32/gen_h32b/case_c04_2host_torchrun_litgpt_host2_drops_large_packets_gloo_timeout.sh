#!/bin/bash
# two namespace hosts, litgpt-style, --pg-timeout 60; after step 1200 gpu-b32-02 drops every packet from gpu-b32-01 of
# 1000 bytes or more (iptables -m length), so full-size TCP segments never arrive (small ones still do).
CASE=c04; PORT=43684; source /work/wt32b/tests/corpus/heldout32/gen_h32b/common.sh; source $G/net32.sh; netdown; netup
(TR2 1 $T --style litgpt --steps 5000 --log-every 100 --eval-every 1000 --ckpt-dir out --ckpt-every 1000 --pg-timeout 60 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style litgpt --steps 5000 --log-every 100 --eval-every 1000 --ckpt-dir out --ckpt-every 1000 --pg-timeout 60 >> out.log 2>&1 &)
waitfor "iter 1200 step" out.log 400; ip netns exec l32bh2 iptables -A INPUT -s 10.232.7.11 -m length --length 1000:65535 -j DROP; log drop
waitgone 300; ip netns exec l32bh2 iptables -L INPUT -n -v; sleep 5; for p in $(agentpids); do kill $p; done; sleep 3; for p in $(agentpids); do kill -9 $p; done; netdown
