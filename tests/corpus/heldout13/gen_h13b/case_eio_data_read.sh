#!/bin/bash
# STORAGE: an LD_PRELOAD shim (inject.c) makes rank 1's pread() on tokens.bin fail with EIO after
# 3200 reads (~step 400), like a failing disk/network filesystem under the data file.
CASE=eio_data_read; . "$(dirname "$0")/common.sh"
LD_PRELOAD=/work/lab13b/inject.so INJ_RANK=1 INJ_PREAD_PATH=tokens.bin INJ_PREAD_AFTER=3200 INJ_PREAD_ERRNO=5 \
  $TR $G/lm13.py --steps 800 --log-every 25 --ckpt-every 200 > out.log 2>&1; echo "rc=$?" > rc.txt
