#!/bin/bash
# two namespace hosts, Catalyst-style, TORCH_CPP_LOG_LEVEL=INFO, FutureWarnings, validation and checkpoints (healthy).
CASE=c07; PORT=44687; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh; source $G/net33.sh; netdown; netup
EXTRA_ENV="TORCH_CPP_LOG_LEVEL=INFO"
(TR2 1 $T --style catalyst --steps 2400 --epoch-steps 300 --log-every 50 --eval-every 1 --ckpt-dir logs --ckpt-every 600 --noisy >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style catalyst --steps 2400 --epoch-steps 300 --log-every 50 --eval-every 1 --ckpt-dir logs --ckpt-every 600 --noisy >> out.log 2>&1 &)
sleep 10; waitgone 300; sleep 5; for p in $(agentpids); do kill $p; done; sleep 3; for p in $(agentpids); do kill -9 $p; done; netdown
