#!/bin/bash
# torchrun 2 ranks, Accelerate-logger style, checkpoints every 400; from step 900 an "augmentation" appends a positional
# column to every batch (49 features for a 48-input model) -> shape error in the first Linear on both ranks.
CASE=a01; PORT=41601; source /work/wt30b/tests/corpus/heldout30/gen_h30b/common.sh
TR $T --style accelerate --steps 3000 --log-every 50 --ckpt-dir ck --ckpt-every 400 --aug-at 900 > out.log 2>&1
