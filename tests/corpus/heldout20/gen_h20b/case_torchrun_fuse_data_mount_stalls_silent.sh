#!/bin/bash
# HANG: the token shards are read through a FUSE passthrough mount (fuse20.py) standing in for a network filesystem;
# after step 300 every read() on it blocks (the "server" stops answering). Output goes through `stdbuf -oL tee`.
# The log is copied after 240 s of silence.
CASE=fuse_stall; source "$(dirname "$0")/common.sh"
mkdir -p mnt; $V/python $G/fuse20.py $D $RUN/mnt $RUN/STALL > fuse.log 2>&1 & FP=$!
sleep 3
$TR $G/t20.py --data-dir $RUN/mnt --fmt plain --steps 2000 --log-every 25 2>&1 | stdbuf -oL tee out.log > /dev/null &
waitfor "step 300/" out.log 600 && touch STALL && echo "stall $(date +%T)" >&2
last=$(stat -c %Y out.log); while [ $(( $(date +%s) - $(stat -c %Y out.log) )) -lt 240 ]; do sleep 5; done
cp out.log kept.log; echo "copied $(date +%T), last write $(date -d @$(stat -c %Y out.log) +%T)" >&2
rm -f STALL; sleep 2; for p in $(envpids t20.py RANK=0) $(envpids t20.py RANK=1); do kill -9 $p; done
sleep 5; pkill -P $$ 2>/dev/null; fusermount -u mnt; kill $FP 2>/dev/null; wait
