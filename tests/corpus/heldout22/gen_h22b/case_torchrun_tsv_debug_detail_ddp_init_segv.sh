#!/bin/bash
# Meant as the long-eval healthy case; with TORCH_DISTRIBUTED_DEBUG=DETAIL both ranks died with SIGSEGV right after
# DDP's Reducer was initialized (not injected: a real crash of this torch build's debug wrapper on gloo). Kept as is;
# the healthy case was re-run without DETAIL (case_torchrun_tsv_long_eval_pauses_healthy.sh).
# Original description: torchrun 2 ranks, Python-logging + TSV rows; evaluation of 1200 batches every 700 steps (long pauses without metric
# rows, announced by 'running evaluation' lines) and a gloo/c10d warning-rich start; nothing injected.
CASE=torchrun_tsv_longeval_detail; source /work/wt22b/tests/corpus/heldout22/gen_h22b/common.sh
TORCH_CPP_LOG_LEVEL=INFO TORCH_DISTRIBUTED_DEBUG=DETAIL $TR $T22 --fmt tsv --steps 2100 --log-every 50 --eval-every 700 --eval-batches 1200 --ckpt-dir ck --ckpt-every 700 > out.log 2>&1
echo exit=$?
