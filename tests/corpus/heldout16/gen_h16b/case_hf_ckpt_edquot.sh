#!/bin/bash
# STORAGE: HF Trainer (torchrun, 2 ranks) saving checkpoints every 100 steps; LD_PRELOAD shim inject16.so makes every
# open of a path containing "checkpoint-200" fail with EDQUOT (122) in rank 0, as a user quota on the output
# filesystem running out would.
CASE=hf_ckpt_edquot; source "$(dirname "$0")/common.sh"
LD_PRELOAD=/work/lab16b/inject16.so INJ_PATH=checkpoint-200 INJ_ERRNO=122 INJ_RANK=0 \
  $TR $G/hf16.py --steps 400 --log-steps 20 --save-steps 100 > out.log 2>&1; echo "exit=$?" >&2
