#!/bin/bash
# two namespace hosts, torchrun --nnodes 2, NeMo-style; after step 800 gloo's data connections of gpu-b30-01 (every
# TCP socket to gpu-b30-02 except the c10d store port) are destroyed with 'ss -K'.
CASE=c04; PORT=41684; source /work/wt30b/tests/corpus/heldout30/gen_h30b/common.sh; source $G/net30.sh; netdown; netup
(TR2 1 $T --style nemo --steps 3000 --log-every 50 --ckpt-dir ck --ckpt-every 500 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style nemo --steps 3000 --log-every 50 --ckpt-dir ck --ckpt-every 500 >> out.log 2>&1 &)
waitfor "|[ ]*8[0-9][0-9]/3000" out.log 400; ip netns exec l30bh1 ss -K dst 10.230.7.12 sport != :$PORT; log killed
waitgone 110; sleep 10; for p in $(agentpids); do kill $p; done; sleep 5; for p in $(agentpids) $(mypids); do kill -9 $p; done; netdown
