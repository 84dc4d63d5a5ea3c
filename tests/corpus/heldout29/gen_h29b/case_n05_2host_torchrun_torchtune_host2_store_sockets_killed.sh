#!/bin/bash
# two namespace hosts, torchrun --nnodes 2, torchtune-like; after step 700 only the c10d store connections of
# gpu-b29-02 (to gpu-b29-01:40685) are destroyed with 'ss -K' (gloo's data connections are left alone).
CASE=n05; PORT=40685; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh; source $G/net29.sh; netdown; netup
(TR2 1 $T --style torchtune --steps 2000 --log-every 50 --ckpt-dir ck --ckpt-every 500 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style torchtune --steps 2000 --log-every 50 --ckpt-dir ck --ckpt-every 500 >> out.log 2>&1 &)
sleep 5; waitfor "|7[0-9][0-9]|Loss" out.log 400; ip netns exec l29bh2 ss -K dst 10.229.7.11 dport = :40685; log killed
waitgone 400; sleep 30; for p in $(agentpids); do kill $p; done; sleep 3; netdown
