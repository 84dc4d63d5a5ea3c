#!/bin/bash
# STORAGE: the checkpoint directory is a real 512 MiB tmpfs; after the step-200 checkpoint the case remounts it
# read-only (as a filesystem that goes read-only after an error does); the step-300 save fails with EROFS.
CASE=ro_erofs; source "$(dirname "$0")/common.sh"
mkdir -p ckptfs; mount -t tmpfs -o size=512m tmpfs ckptfs
$TR $T20 --steps 800 --log-every 25 --ckpt-every 100 --ckpt-dir $RUN/ckptfs/run1 > out.log 2>&1 &
waitfor "step_0000200.pt" out.log 400 && mount -o remount,ro ckptfs && echo "remounted ro $(date +%T)" >&2
wait; echo "exit=$?" >&2; umount ckptfs
