#!/bin/bash
# two namespace hosts, stable-baselines3-style, --pg-timeout 60: after iteration 8 gpu-b33-02's interface set down
# (ip link set l33bv2 down), for good.
CASE=c06; PORT=44686; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh; source $G/net33.sh; netdown; netup
(TR2 1 $T --style sb3 --steps 4000 --log-every 100 --ckpt-dir models --ckpt-every 1000 --pg-timeout 60 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style sb3 --steps 4000 --log-every 100 --ckpt-dir models --ckpt-every 1000 --pg-timeout 60 >> out.log 2>&1 &)
waitfor "iterations *| 8 " out.log 400; ip -n l33bh2 link set l33bv2 down; log down
waitgone 300; sleep 5; for p in $(agentpids); do kill $p; done; sleep 3; for p in $(agentpids); do kill -9 $p; done; netdown
