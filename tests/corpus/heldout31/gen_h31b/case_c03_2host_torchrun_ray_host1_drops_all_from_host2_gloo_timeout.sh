#!/bin/bash
# two namespace hosts, torchrun --nnodes 2, Ray-Train-worker style, --pg-timeout 60; after step 1500 gpu-b31-01's
# firewall drops everything from gpu-b31-02 (iptables INPUT DROP) -> both ranks' gloo timeouts.
CASE=c03; PORT=42683; source /work/wt31b/tests/corpus/heldout31/gen_h31b/common.sh; source $G/net31.sh; netdown; netup
(TR2 1 $T --style ray --steps 5000 --log-every 100 --pg-timeout 60 --ckpt-dir ckpt --ckpt-every 1000 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style ray --steps 5000 --log-every 100 --pg-timeout 60 --ckpt-dir ckpt --ckpt-every 1000 >> out.log 2>&1 &)
waitfor "'step': 1500," out.log 400; ip netns exec l31bh1 iptables -A INPUT -s 10.231.7.12 -j DROP; log drop
waitgone 240; sleep 20; for p in $(agentpids); do kill $p; done; sleep 5; for p in $(agentpids) $(mypids); do kill -9 $p; done; netdown
