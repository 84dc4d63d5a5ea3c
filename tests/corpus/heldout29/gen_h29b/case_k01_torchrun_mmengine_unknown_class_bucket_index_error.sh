#!/bin/bash
# torchrun 2 ranks, MMEngine-like, checkpoints every 400; from step 700 ambiguous rows get an "unknown" class id 10 on a
# 10-way head -> IndexError: Target 10 is out of bounds.
CASE=k01; PORT=40601; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh
TR $T --style mmengine --steps 2400 --log-every 50 --ckpt-dir ck --ckpt-every 400 --unk-class-at 700 > out.log 2>&1
