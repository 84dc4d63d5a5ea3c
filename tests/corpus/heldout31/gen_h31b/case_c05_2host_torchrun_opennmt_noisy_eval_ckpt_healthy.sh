#!/bin/bash
# two namespace hosts, torchrun --nnodes 2, OpenNMT-py-style, FutureWarnings, validation and checkpoints; healthy.
CASE=c05; PORT=42685; source /work/wt31b/tests/corpus/heldout31/gen_h31b/common.sh; source $G/net31.sh; netdown; netup
(TR2 1 $T --style opennmt --steps 5000 --log-every 100 --eval-every 1000 --ckpt-dir models --ckpt-every 1000 --noisy >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style opennmt --steps 5000 --log-every 100 --eval-every 1000 --ckpt-dir models --ckpt-every 1000 --noisy >> out.log 2>&1 &)
sleep 5; waitgone 500; sleep 3; for p in $(agentpids); do kill $p; done; netdown
