#!/bin/bash
# two namespace hosts, torchrun --nnodes 2, torchtitan-like, checkpoints every 500; after step 700 gpu-b29-02's veth is
# set down for 4 s and up again (a link flap): TCP retransmits and training goes on. Healthy.
CASE=n04; PORT=40684; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh; source $G/net29.sh; netdown; netup
(TR2 1 $T --style titan --steps 1800 --log-every 50 --ckpt-dir ck --ckpt-every 500 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style titan --steps 1800 --log-every 50 --ckpt-dir ck --ckpt-every 500 >> out.log 2>&1 &)
waitfor "step:   700" out.log 400; ip -n l29bh2 link set l29bv2 down; log down; sleep 4; ip -n l29bh2 link set l29bv2 up; log up
waitgone 540; sleep 3; for p in $(agentpids); do kill $p; done; netdown
