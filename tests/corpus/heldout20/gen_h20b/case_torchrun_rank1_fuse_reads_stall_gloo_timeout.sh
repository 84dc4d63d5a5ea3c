#!/bin/bash
# HANG: rank 1 reads its shards through a FUSE passthrough mount (fuse20.py), rank 0 from the local directory; after
# step 200 every read() on the mount blocks, so rank 1 never reaches the next all-reduce and rank 0's gloo
# collective times out (--pg-timeout 60). Python logging lines.
CASE=fuse_r1; source "$(dirname "$0")/common.sh"
mkdir -p mnt; ln -s $D r0; ln -s $RUN/mnt r1
$V/python $G/fuse20.py $D $RUN/mnt $RUN/STALL > fuse.log 2>&1 & FP=$!
sleep 3
$TR $G/t20.py --data-dir "$RUN/r{rank}" --steps 1000 --log-every 25 --pg-timeout 60 > out.log 2>&1 &
waitfor "step 200/" out.log 600 && touch STALL && echo "stall $(date +%T)" >&2
waitfor "ChildFailedError" out.log 400; sleep 5; cp out.log kept.log; echo "copied $(date +%T)" >&2
rm -f STALL; sleep 5; for p in $(envpids t20.py RANK=1); do kill -9 $p; done; sleep 3; fusermount -u mnt; kill $FP; wait
