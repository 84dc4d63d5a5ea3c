#!/bin/bash
# two namespace hosts, AllenNLP-style, FutureWarnings, validation every epoch and checkpoints; nothing injected.
CASE=c06; PORT=43686; source /work/wt32b/tests/corpus/heldout32/gen_h32b/common.sh; source $G/net32.sh; netdown; netup
(TR2 1 $T --style allennlp --steps 3000 --epoch-steps 300 --log-every 50 --eval-every 1 --ckpt-dir serialization --ckpt-every 600 --noisy >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style allennlp --steps 3000 --epoch-steps 300 --log-every 50 --eval-every 1 --ckpt-dir serialization --ckpt-every 600 --noisy >> out.log 2>&1 &)
sleep 10; waitgone 400; sleep 5; for p in $(agentpids); do kill $p; done; netdown
