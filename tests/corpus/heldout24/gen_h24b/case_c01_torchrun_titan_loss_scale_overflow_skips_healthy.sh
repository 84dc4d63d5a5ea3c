#!/bin/bash
# torchrun 2 ranks, torchtitan-style; dynamic loss scaling from 2^30 (grads checked for fp16 overflow): the first steps
# and every 100th step (scale doubled) overflow and are skipped with a WARNING; the run completes. Nothing injected.
CASE=c01; source /work/wt24b/tests/corpus/heldout24/gen_h24b/common.sh
$TR $T24 --fmt titan --steps 2400 --log-every 50 --loss-scale 1073741824 --eval-every 600 --ckpt-dir ck --ckpt-every 800 > out.log 2>&1
echo "exit=$?"
