#!/bin/bash
# STORAGE: srun-style launch (ranks started directly, appending to out.log); the LD_PRELOAD shim makes
# rank 0's rename() of its 2nd checkpoint (.tmp -> final) fail with ESTALE (errno 116), as on an NFS
# checkpoint directory whose handle went stale.
CASE=estale_ckpt_rename; . "$(dirname "$0")/common.sh"
export LD_PRELOAD=/work/lab13b/inject.so INJ_RANK=0 INJ_RENAME_PATH=ckpt/ INJ_RENAME_AFTER=1 INJ_RENAME_ERRNO=116
PORT=29641 srun2 $G/lm13.py --steps 800 --log-every 25 --ckpt-every 200; echo "done" > rc.txt
