#!/bin/bash
# STORAGE: a first run (not kept) writes checkpoints to ckpt/; the kept run resumes with --resume and
# inject14.so makes read() on ckpt/last.pt fail with EIO (5) in rank 1, as a failing disk/NFS server would.
CASE=resume_ckpt_eio; . "$(dirname "$0")/common.sh"
$TR $G/loop14.py --steps 200 --log-every 50 --ckpt-every 100 > first.log 2>&1
LD_PRELOAD=/work/lab14b/inject14.so INJ_FUNC=read INJ_PATH=/ckpt/last.pt INJ_AFTER=0 INJ_ERRNO=5 INJ_RANK=1 \
  $TR $G/loop14.py --steps 600 --resume --log-every 50 --ckpt-every 100 > out.log 2>&1; echo "rc=$?" > rc.txt
