#!/bin/bash
# CRASH (storage): torchrun 2 ranks, per-rank `[rank r/w host]` lines; rank 0 writes gzip-compressed checkpoints
# (with a 100 MiB payload of random floats, 147 MiB each) every 100 steps to a 250 MiB tmpfs (standing in for a nearly full
# checkpoint filesystem): the second save (step 200) runs out of space inside gzip's write.
CASE=tr_enospc; source "$(dirname "$0")/common.sh"
M=/work/lab21b/mnt/ckpt21b; mkdir -p $M; mountpoint -q $M && umount $M; mount -t tmpfs -o size=250M tmpfs21b $M
$TR $T21 --fmt rank --steps 600 --log-every 25 --ckpt-every 100 --ckpt-compress --ckpt-extra-mb 100 --ckpt-dir $M/run7 > out.log 2>&1
echo "exit=$?" >&2
df -h $M >&2; umount $M
