#!/bin/bash
# torchrun 2 ranks, HF-Trainer-like; the first evaluation (step 600) divides max_eval_samples=None by the world size
# -> TypeError on every rank.
CASE=d03; PORT=39603; source /work/wt28b/tests/corpus/heldout28/gen_h28b/common.sh
TR $T --style hf --steps 2400 --log-every 50 --eval-every 600 --ckpt-dir ck --ckpt-every 600 --eval-bug > out.log 2>&1
