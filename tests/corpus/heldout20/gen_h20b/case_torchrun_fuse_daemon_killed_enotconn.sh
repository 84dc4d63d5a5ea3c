#!/bin/bash
# STORAGE: both ranks read their shards through the FUSE passthrough mount (fuse20.py, standing in for a network or
# object-store filesystem client); after step 250 the FUSE daemon is SIGKILLed, so every open/read on the mount fails
# with ENOTCONN ("Transport endpoint is not connected"). Python logging lines.
CASE=fuse_dead; source "$(dirname "$0")/common.sh"
mkdir -p mnt; $V/python $G/fuse20.py $D $RUN/mnt $RUN/STALL > fuse.log 2>&1 & FP=$!
sleep 3
$TR $G/t20.py --data-dir $RUN/mnt --steps 1000 --log-every 25 --ckpt-every 200 --ckpt-dir $RUN/ckpt > out.log 2>&1 &
waitfor "step 250/" out.log 600 && kill -9 $FP && echo "fuse daemon killed $(date +%T)" >&2
wait; echo "exit=$?" >&2; fusermount -u -z mnt
