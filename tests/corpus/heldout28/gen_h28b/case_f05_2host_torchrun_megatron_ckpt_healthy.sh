#!/bin/bash
# two namespace hosts, torchrun --nnodes 2, Megatron-like, evaluation and checkpoints (no fault).
CASE=f05; PORT=39685; source /work/wt28b/tests/corpus/heldout28/gen_h28b/common.sh; source $G/net28.sh; netdown; netup
(TR2 1 $T --style megatron --steps 1500 --log-every 100 --eval-every 500 --ckpt-dir $RUN/ck --ckpt-every 500 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style megatron --steps 1500 --log-every 100 --eval-every 500 --ckpt-dir $RUN/ck2 --ckpt-every 500 >> out.log 2>&1 &)
waitgone 500; sleep 3; netdown
