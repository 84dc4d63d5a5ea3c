#!/bin/bash
# torchrun 2 ranks, Python logging from both ranks, checkpoints every 300; at step 700 rank 0 opens a named pipe for the
# next shard manifest and no writer ever comes: rank 0 blocks, rank 1 waits in its allreduce (default 1800 s timeout);
# output silent. kept.log copied ~150 s after the last line, then the run is stopped.
CASE=k04; PORT=40604; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh
mkfifo $RUN/next_manifest
(TR $T --style pylog --steps 3000 --log-every 100 --ckpt-dir ck --ckpt-every 300 --fifo-at 700 --fifo $RUN/next_manifest > out.log 2>&1 &)
waitfor "step 600/" out.log 300; sleep 5; while [ $(quiet out.log) -lt 150 ]; do sleep 2; done; cp out.log kept.log; log "kept after $(quiet out.log)s"
for p in $(agentpids); do kill $p; done; waitgone 60; for p in $(mypids); do kill -9 $p; done
