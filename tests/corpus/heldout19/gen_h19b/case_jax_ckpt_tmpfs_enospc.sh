#!/bin/bash
# STORAGE: two JAX processes, loguru lines; process 0 writes a checkpoint (np.savez, 8.6 MiB) every 200 steps to a
# directory that is a real 20 MiB tmpfs (mounted by this script before the run): the third save fills it (ENOSPC).
CASE=jax_enospc; source "$(dirname "$0")/common.sh"
mkdir -p ckpt; mount -t tmpfs -o size=20m lab19b_ckpt $RUN/ckpt
J19 29722 --steps 1000 --log-every 50 --ckpt-dir $RUN/ckpt --ckpt-every 200
for i in $(seq 1 300); do pgrep -f "29722 --nproc" >/dev/null || break; sleep 1; done
sleep 60; pkill -f "29722 --nproc"; wait; umount $RUN/ckpt; echo "done $(date +%T)" >&2
