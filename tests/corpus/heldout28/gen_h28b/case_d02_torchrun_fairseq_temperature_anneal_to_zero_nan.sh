#!/bin/bash
# torchrun 2 ranks, fairseq-like train_inner lines; logits divided by a temperature annealed linearly to 0 at update
# 1000 (a schedule bug): the loss climbs then becomes nan -> the script's FloatingPointError.
CASE=d02; PORT=39602; source /work/wt28b/tests/corpus/heldout28/gen_h28b/common.sh
TR $T --style fairseq --steps 3000 --log-every 50 --eval-every 500 --ckpt-dir ck --ckpt-every 500 --anneal-temp-to 1000 > out.log 2>&1
