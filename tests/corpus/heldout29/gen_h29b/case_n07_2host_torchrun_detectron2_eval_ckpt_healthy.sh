#!/bin/bash
# two namespace hosts, torchrun --nnodes 2, detectron2-like, evaluation and checkpoints every 500, FutureWarnings.
# Nothing injected: a healthy run.
CASE=n07; PORT=40687; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh; source $G/net29.sh; netdown; netup
(TR2 1 $T --style detectron2 --steps 2000 --log-every 50 --eval-every 500 --ckpt-dir ck --ckpt-every 500 --noisy >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style detectron2 --steps 2000 --log-every 50 --eval-every 500 --ckpt-dir ck --ckpt-every 500 --noisy >> out.log 2>&1 &)
sleep 10; waitgone 500; sleep 5; for p in $(agentpids); do kill $p; done; netdown
