#!/bin/bash
# torchrun 2 ranks, torchtitan-style; SGD momentum with lr 2000 (a config typo; 50-step warmup) and no clipping: the loss diverges to inf/nan; the NaN guard raises.
CASE=c05; source /work/wt24b/tests/corpus/heldout24/gen_h24b/common.sh
$TR $T24 --fmt titan --steps 2400 --log-every 10 --opt sgd --lr 2000 --clip 0 --nan-guard --ckpt-dir ck --ckpt-every 500 > out.log 2>&1
echo "exit=$?"
