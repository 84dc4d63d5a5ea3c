#!/bin/bash
# torchrun 2 ranks, JSON lines from both ranks; after step 900 rank 0 gets SIGABRT (no message of its own).
CASE=d15; PORT=39615; source /work/wt28b/tests/corpus/heldout28/gen_h28b/common.sh
(TR $T --style jsonl --steps 2400 --log-every 50 > out.log 2>&1 &)
waitfor '"step": 900,' out.log 400; P=$(rankpid RANK=0); kill -ABRT $P; log "abrt $P"; waitgone 300
