#!/bin/bash
# torchrun 2 ranks, Python-logging + TSV rows; evaluation of 1200 batches every 700 steps (long pauses without metric
# rows, announced by 'running evaluation' lines) and C++ INFO logging (TORCH_CPP_LOG_LEVEL=INFO: c10d store/gloo INFO noise); nothing injected.
CASE=torchrun_tsv_longeval; source /work/wt22b/tests/corpus/heldout22/gen_h22b/common.sh
TORCH_CPP_LOG_LEVEL=INFO $TR $T22 --fmt tsv --steps 2100 --log-every 50 --eval-every 700 --eval-batches 1200 --ckpt-dir ck --ckpt-every 700 > out.log 2>&1
echo exit=$?
