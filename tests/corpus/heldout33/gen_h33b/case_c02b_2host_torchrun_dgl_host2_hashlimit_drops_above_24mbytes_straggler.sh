#!/bin/bash
# c02 redone (the tc police action module is not available here): two namespace hosts, DGL-dist-style; early in epoch
# 2 gpu-b33-02 starts dropping packets from gpu-b33-01 above 24 MB/s (iptables -m hashlimit --hashlimit-above 24mb/s),
# to the end.
CASE=c02b; PORT=44692; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh; source $G/net33.sh; netdown; netup
(TR2 1 $T --style dgl --steps 3200 --epoch-steps 400 --log-every 100 --eval-every 1 --ckpt-dir ckpt --ckpt-every 800 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style dgl --steps 3200 --epoch-steps 400 --log-every 100 --eval-every 1 --ckpt-dir ckpt --ckpt-every 800 >> out.log 2>&1 &)
waitfor "Epoch 00002 | Step 00100" out.log 400
ip netns exec l33bh2 iptables -A INPUT -s 10.233.7.11 -m hashlimit --hashlimit-above 24mb/s --hashlimit-burst 32mb --hashlimit-mode srcip --hashlimit-name c02b -j DROP; log "hashlimit rc=$?"
waitgone 500; ip netns exec l33bh2 iptables -L INPUT -n -v; sleep 5; for p in $(agentpids); do kill $p; done; sleep 3; for p in $(agentpids); do kill -9 $p; done; netdown
