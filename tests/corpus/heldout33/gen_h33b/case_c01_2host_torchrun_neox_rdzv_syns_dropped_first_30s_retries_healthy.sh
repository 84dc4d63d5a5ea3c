#!/bin/bash
# two namespace hosts, GPT-NeoX-style, TORCH_CPP_LOG_LEVEL=INFO: for the first 30 s gpu-b33-01 drops SYNs from
# gpu-b33-02 to the rendezvous port (iptables), so host 2's store client retries; then the rule is removed (healthy).
CASE=c01; PORT=44681; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh; source $G/net33.sh; netdown; netup
ip netns exec l33bh1 iptables -A INPUT -s 10.233.7.12 -p tcp --dport $PORT --syn -j DROP
EXTRA_ENV="TORCH_CPP_LOG_LEVEL=INFO"
(TR2 1 $T --style neox --steps 3000 --epoch-steps 500 --log-every 100 --eval-every 1 --ckpt-dir checkpoints --ckpt-every 1000 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style neox --steps 3000 --epoch-steps 500 --log-every 100 --eval-every 1 --ckpt-dir checkpoints --ckpt-every 1000 >> out.log 2>&1 &)
sleep 30; ip netns exec l33bh1 iptables -L INPUT -n -v; ip netns exec l33bh1 iptables -F INPUT; log unblocked
waitgone 300; sleep 5; for p in $(agentpids); do kill $p; done; sleep 3; for p in $(agentpids); do kill -9 $p; done; netdown
