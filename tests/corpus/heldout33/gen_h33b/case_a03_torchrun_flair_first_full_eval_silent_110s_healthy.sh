#!/bin/bash
# torchrun 2 ranks, Flair-style: the first end-of-epoch evaluation is a "full" one that sits silent for 110 s (both
# ranks sleep inside it, no output); then training goes on to the end (healthy).
CASE=a03; PORT=44603; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh
(TR $T --style flair --steps 2000 --epoch-steps 400 --log-every 40 --eval-every 1 --eval-extra-s 110 --ckpt-dir resources/taggers/mlp48 --ckpt-every 400 > out.log 2>&1 &)
sleep 5; waitgone 560
