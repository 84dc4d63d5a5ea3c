#!/bin/bash
# STORAGE: the job's TMPDIR is on the project filesystem (as on many clusters); inject14.so makes write() on
# files under it fail with EDQUOT (122) after 6 writes. Lightning's checkpoint save writes a temp file there
# (fsspec transaction) and moves it into checkpoints/, so the quota runs out during the 4th save (step 400).
CASE=pl_ckpt_edquot; . "$(dirname "$0")/common.sh"
mkdir -p $RUN/tmp; export TMPDIR=$RUN/tmp
LD_PRELOAD=/work/lab14b/inject14.so INJ_FUNC=write INJ_PATH=/pl_ckpt_edquot/tmp/ INJ_AFTER=6 INJ_ERRNO=122 \
  $TR $G/pl14.py --max-steps 600 --val-every 100 --ckpt-monitor val_loss --log-every 25 > out.log 2>&1; echo "rc=$?" > rc.txt
