#!/bin/bash
# torchrun 2 ranks, HF-Trainer-like, FutureWarnings, retried tracker uploads, DataLoader workers, eval and checkpoints.
CASE=d16; PORT=39616; source /work/wt28b/tests/corpus/heldout28/gen_h28b/common.sh
TR $T --style hf --steps 1800 --log-every 50 --eval-every 600 --ckpt-dir ck --ckpt-every 600 --noisy --tracker-flaky --workers 1 > out.log 2>&1
