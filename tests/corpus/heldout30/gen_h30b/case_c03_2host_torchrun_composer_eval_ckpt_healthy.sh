#!/bin/bash
# two namespace hosts, torchrun --nnodes 2, Composer-style, FutureWarnings, evaluation and checkpoints.
CASE=c03; PORT=41683; source /work/wt30b/tests/corpus/heldout30/gen_h30b/common.sh; source $G/net30.sh; netdown; netup
(TR2 1 $T --style composer --steps 1600 --log-every 100 --ckpt-dir ck --ckpt-every 400 --eval-every 400 --noisy >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style composer --steps 1600 --log-every 100 --ckpt-dir ck --ckpt-every 400 --eval-every 400 --noisy >> out.log 2>&1 &)
sleep 5; waitgone 500; sleep 3; for p in $(agentpids); do kill $p; done; netdown
