#!/bin/bash
# NONE: as case_torchrun_ckpt_remount_ro_erofs.sh, but the script has a fallback checkpoint dir (--ckpt-fallback):
# the step-300..600 saves fail with EROFS on the primary dir, are logged with a traceback and go to the local dir;
# the run finishes.
CASE=ro_fallback; source "$(dirname "$0")/common.sh"
mkdir -p ckptfs; mount -t tmpfs -o size=512m tmpfs ckptfs
$TR $T20 --steps 600 --log-every 25 --ckpt-every 100 --ckpt-dir $RUN/ckptfs/run1 --ckpt-fallback $RUN/local_ckpt > out.log 2>&1 &
waitfor "step_0000200.pt" out.log 400 && mount -o remount,ro ckptfs && echo "remounted ro $(date +%T)" >&2
wait; echo "exit=$?" >&2; umount ckptfs
