#!/bin/bash
# two namespace hosts, torchrun --nnodes 2, JSON lines; after step 600 every TCP socket of gpu-b30-02 to gpu-b30-01
# (gloo data and c10d store connections) is destroyed with 'ss -K'.
CASE=c07; PORT=41687; source /work/wt30b/tests/corpus/heldout30/gen_h30b/common.sh; source $G/net30.sh; netdown; netup
(TR2 1 $T --style jsonl --steps 3000 --log-every 50 --ckpt-dir ck --ckpt-every 400 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style jsonl --steps 3000 --log-every 50 --ckpt-dir ck --ckpt-every 400 >> out.log 2>&1 &)
waitfor '"step": 600, "loss"' out.log 300; ip netns exec l30bh2 ss -K dst 10.230.7.11; log killed
waitgone 90; sleep 5; for p in $(agentpids); do kill $p; done; sleep 5; for p in $(agentpids) $(mypids); do kill -9 $p; done; netdown
