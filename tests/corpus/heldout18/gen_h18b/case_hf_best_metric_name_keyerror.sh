#!/bin/bash
# APPLICATION: torchrun, 2 processes, HF Trainer (GPT-2 from config, tqdm bars), evaluation + checkpoint every 100
# steps. Config bug: metric_for_best_model=accuracy with load_best_model_at_end, but compute_metrics reports
# `token_acc`, so the first checkpoint after the step-100 evaluation fails on the missing metric.
CASE=hf_best_metric; source "$(dirname "$0")/common.sh"
$TR $G/hf18.py --steps 400 --best-metric accuracy --out $RUN/out > out.log 2>&1; echo "exit=$?" >&2
