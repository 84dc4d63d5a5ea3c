#!/bin/bash
# torchrun 2 ranks, Keras-like; 30 mislabelled batches from step 700 (loss spike) that training recovers from.
CASE=d17; PORT=39617; source /work/wt28b/tests/corpus/heldout28/gen_h28b/common.sh
TR $T --style keras --steps 1800 --epoch-steps 100 --eval-every 300 --spike-at 700 --ckpt-dir ck --ckpt-every 600 > out.log 2>&1
