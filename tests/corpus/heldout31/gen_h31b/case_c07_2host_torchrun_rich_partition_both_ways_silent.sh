#!/bin/bash
# two namespace hosts, torchrun --nnodes 2, rich-console logging (pg timeout 1800 s); after step 1500 both hosts drop
# everything from each other (a network partition); kept.log copied after ~150 s of silence, then everything killed.
CASE=c07; PORT=42687; source /work/wt31b/tests/corpus/heldout31/gen_h31b/common.sh; source $G/net31.sh; netdown; netup
(TR2 1 $T --style rich --steps 5000 --log-every 100 --ckpt-dir ckpt --ckpt-every 1000 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style rich --steps 5000 --log-every 100 --ckpt-dir ckpt --ckpt-every 1000 >> out.log 2>&1 &)
waitfor "step 1500/" out.log 400; ip netns exec l31bh1 iptables -A INPUT -s 10.231.7.12 -j DROP; ip netns exec l31bh2 iptables -A INPUT -s 10.231.7.11 -j DROP; log partition
sleep 5; while [ $(quiet out.log) -lt 150 ]; do sleep 1; done; log "quiet $(quiet out.log)"; cp out.log kept.log
for p in $(agentpids); do kill $p; done; sleep 5; for p in $(agentpids) $(mypids); do kill -9 $p; done; netdown
