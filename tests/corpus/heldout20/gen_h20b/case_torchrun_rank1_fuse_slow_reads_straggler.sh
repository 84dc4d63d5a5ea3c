#!/bin/bash
# STRAGGLER: rank 1 reads its shards through a FUSE passthrough mount (fuse20.py), rank 0 from the local directory;
# after step 200 every read() on the mount takes 10 ms longer (a slow file server) until the end. Plain lines.
CASE=fuse_slow; source "$(dirname "$0")/common.sh"
mkdir -p mnt; ln -s $D r0; ln -s $RUN/mnt r1
$V/python $G/fuse20.py $D $RUN/mnt $RUN/STALL > fuse.log 2>&1 & FP=$!
sleep 3
$TR $G/t20.py --data-dir "$RUN/r{rank}" --fmt plain --steps 450 --log-every 25 --batch 32 > out.log 2>&1 &
waitfor "step 200/" out.log 600 && touch STALL.slow && echo "slow $(date +%T)" >&2
waitfor "training finished" out.log 1200; sleep 5; rm -f STALL.slow; fusermount -u mnt; kill $FP; wait
