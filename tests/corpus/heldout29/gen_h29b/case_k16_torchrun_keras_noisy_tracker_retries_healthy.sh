#!/bin/bash
# torchrun 2 ranks, Keras-like, FutureWarnings, retried tracker uploads, evaluation every 300 (val_loss on the epoch
# line), checkpoints every 300. Nothing injected: a healthy run.
CASE=k16; PORT=40616; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh
TR $T --style keras --steps 1500 --epoch-steps 150 --log-every 50 --eval-every 300 --ckpt-dir ck --ckpt-every 300 --noisy --tracker-flaky > out.log 2>&1
