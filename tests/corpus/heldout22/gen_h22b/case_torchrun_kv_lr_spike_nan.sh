#!/bin/bash
# torchrun 2 ranks, key=value lines, --nan-check; a misconfigured lr warm-restart multiplies lr by 1e36 from step 500
# for 50 steps -> the loss goes non-finite and the program raises FloatingPointError.
CASE=torchrun_kv_nan; source /work/wt22b/tests/corpus/heldout22/gen_h22b/common.sh
$TR $T22 --fmt kv --steps 2000 --log-every 50 --ckpt-dir ck --ckpt-every 250 --nan-check --lr-spike 500:1e36:50 > out.log 2>&1
echo exit=$?
