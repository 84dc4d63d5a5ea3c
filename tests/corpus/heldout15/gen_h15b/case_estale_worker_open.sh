#!/bin/bash
# STORAGE: rank 1's DataLoader worker gets ESTALE (errno 116) opening the token file after 900 opens
# (LD_PRELOAD shim, path filter tokens.bin, RANK 1). srun -l style launch, CSV metrics on rank 0.
CASE=estale_worker_open; source "$(dirname "$0")/common.sh"
export LD_PRELOAD=/work/lab15b/inject15.so INJ_RANK=1 INJ_PATH=tokens.bin INJ_OPEN_AFTER=900 INJ_OPEN_ERRNO=116
srunl $G/t15.py --data $DATA --steps 200 --log-every 10
echo "exit=$?" >&2
