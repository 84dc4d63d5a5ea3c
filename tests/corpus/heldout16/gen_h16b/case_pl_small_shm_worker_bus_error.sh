#!/bin/bash
# NODE: Lightning DDP under torchrun (2 ranks) with 2 DataLoader workers per rank, run in a private mount namespace whose
# /dev/shm is a 20 KiB tmpfs (a node with a tiny/full /dev/shm); workers pass batches through shared memory.
CASE=pl_small_shm; source "$(dirname "$0")/common.sh"
unshare -m bash -c "mount -t tmpfs -o size=20k tmpfs /dev/shm; exec $TR $G/pl16.py --steps 300 --refresh 50 --logger csv --workers 2 --hidden 64 --devices 2" > out.log 2>&1; echo "exit=$?" >&2
