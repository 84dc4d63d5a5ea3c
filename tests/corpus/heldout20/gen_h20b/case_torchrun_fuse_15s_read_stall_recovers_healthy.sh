#!/bin/bash
# NONE: both ranks read their shards through the FUSE passthrough mount; after step 250 every read() blocks for 15 s
# (the "server" pauses), then the mount answers again and the run goes on at its old pace to the end. Plain lines.
CASE=fuse_blip; source "$(dirname "$0")/common.sh"
mkdir -p mnt; $V/python $G/fuse20.py $D $RUN/mnt $RUN/STALL > fuse.log 2>&1 & FP=$!
sleep 3
$TR $G/t20.py --data-dir $RUN/mnt --fmt plain --steps 600 --log-every 25 --ckpt-every 200 --ckpt-dir $RUN/ckpt > out.log 2>&1 &
TP=$!
waitfor "step 250/" out.log 600 && touch STALL && echo "stall $(date +%T)" >&2; sleep 15; rm -f STALL; echo "resume $(date +%T)" >&2
wait $TP; echo "exit=$?" >&2; fusermount -u mnt; kill $FP; wait
