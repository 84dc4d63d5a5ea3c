#!/bin/bash
# torchrun 2 ranks, fairseq-like, eval and checkpoints every 600; 30 mislabelled batches from update 1100: a loss spike
# that recovers. Healthy.
CASE=k11; PORT=40611; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh
TR $T --style fairseq --steps 2400 --log-every 50 --eval-every 600 --ckpt-dir ck --ckpt-every 600 --spike-at 1100 --noisy > out.log 2>&1
