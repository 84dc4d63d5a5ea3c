#!/bin/bash
# STORAGE: rank 0's third checkpoint save fails in os.fsync with EIO (LD_PRELOAD shim: fsync fails after 2 calls in RANK 0).
# torchrun, timm-style lines.
CASE=fsync_eio_ckpt; source "$(dirname "$0")/common.sh"
LD_PRELOAD=/work/lab15b/inject15.so INJ_RANK=0 INJ_FSYNC_AFTER=2 INJ_FSYNC_ERRNO=5 \
  $TR $G/t15.py --data $DATA --fmt timm --steps 200 --ckpt-every 40 --fsync --log-every 10 > out.log 2>&1
echo "exit=$?" >&2
