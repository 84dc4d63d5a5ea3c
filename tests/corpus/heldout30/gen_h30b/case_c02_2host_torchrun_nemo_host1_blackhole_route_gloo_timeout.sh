#!/bin/bash
# two namespace hosts, torchrun --nnodes 2, NeMo-style, --pg-timeout 60; after step 700 a blackhole route to
# gpu-b30-02 is added on gpu-b30-01 (host 1's packets to host 2 are dropped silently).
CASE=c02; PORT=41682; source /work/wt30b/tests/corpus/heldout30/gen_h30b/common.sh; source $G/net30.sh; netdown; netup
(TR2 1 $T --style nemo --steps 3000 --log-every 50 --pg-timeout 60 --ckpt-dir ck --ckpt-every 500 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style nemo --steps 3000 --log-every 50 --pg-timeout 60 --ckpt-dir ck --ckpt-every 500 >> out.log 2>&1 &)
waitfor "|[ ]*7[0-9][0-9]/3000" out.log 400; ip -n l30bh1 route add blackhole 10.230.7.12/32; log blackhole
waitgone 240; sleep 20; for p in $(agentpids); do kill $p; done; sleep 5; for p in $(agentpids) $(mypids); do kill -9 $p; done; netdown
