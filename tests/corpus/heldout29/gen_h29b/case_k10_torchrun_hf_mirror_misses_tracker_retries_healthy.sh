#!/bin/bash
# torchrun 2 ranks, HF-Trainer-like, FutureWarnings, eval every 500, checkpoints every 500; rank 0 tries a shard index on
# a mirror directory that exists but lacks most files (real FileNotFoundError, caught, falls back to the local copy),
# plus retried tracker uploads. Nothing injected otherwise: a healthy run.
CASE=k10; PORT=40610; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh
mkdir -p mirror; touch mirror/shard-00002.idx mirror/shard-00005.idx
TR $T --style hf --steps 2000 --log-every 50 --eval-every 500 --ckpt-dir ck --ckpt-every 500 --noisy --tracker-flaky --mirror $RUN/mirror > out.log 2>&1
