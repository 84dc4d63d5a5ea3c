#!/bin/bash
# torchrun 2 ranks, JSON lines from both ranks, eval every 400; rank 0 gets SIGQUIT after step 1000.
CASE=k12; PORT=40612; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh
(TR $T --style jsonl --steps 3000 --log-every 50 --eval-every 400 > out.log 2>&1 &)
waitfor '"step": 1000, "loss"' out.log 300; P=$(rankpid RANK=0); kill -QUIT $P; log "quit $P"; waitgone 200
