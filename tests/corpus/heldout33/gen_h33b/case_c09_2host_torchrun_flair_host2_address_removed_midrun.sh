#!/bin/bash
# two namespace hosts, Flair-style, --pg-timeout 60: in epoch 3 gpu-b33-02's address 10.233.7.12 is removed from its
# interface (ip addr del), for good.
CASE=c09; PORT=44689; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh; source $G/net33.sh; netdown; netup
(TR2 1 $T --style flair --steps 4000 --epoch-steps 400 --log-every 40 --eval-every 1 --ckpt-dir resources --ckpt-every 800 --pg-timeout 60 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style flair --steps 4000 --epoch-steps 400 --log-every 40 --eval-every 1 --ckpt-dir resources --ckpt-every 800 --pg-timeout 60 >> out.log 2>&1 &)
waitfor "epoch 3 - iter 200/" out.log 400; ip -n l33bh2 addr del 10.233.7.12/24 dev l33bv2; log addrdel
waitgone 300; sleep 5; for p in $(agentpids); do kill $p; done; sleep 3; for p in $(agentpids); do kill -9 $p; done; netdown
