#!/bin/bash
# two namespace hosts, torchrun --nnodes 2 --nproc-per-node 1, torchtitan-style, checkpoints every 500; nothing injected.
CASE=c28; source /work/wt27b/tests/corpus/heldout27/gen_h27b/common.sh; source $G/net27.sh; netdown; netup
(TR2 1 $T --style titan --steps 2000 --log-every 100 --ckpt-dir $RUN/ck --ckpt-every 500 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style titan --steps 2000 --log-every 100 --ckpt-dir $RUN/ck --ckpt-every 500 >> out.log 2>&1 &)
sleep 20; waitgone 400; sleep 3; netdown
