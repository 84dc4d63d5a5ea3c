#!/bin/bash
# NONE: rank 0 writes a profiler trace every 50 steps into a 256 KiB tmpfs; each write fails with ENOSPC, is caught and
# logged as a warning, and training completes. srun -l style, CSV.
CASE=profiler_enospc_healthy; source "$(dirname "$0")/common.sh"
mkdir -p prof && mount -t tmpfs -o size=256k tmpfs prof
PORT=29865 srunl $G/t15.py --data $DATA --steps 200 --log-every 10 --profile-dir $RUN/prof --profile-every 50 --ckpt-every 100
echo "exit=$?" >&2
umount prof
