#!/bin/bash
# STRAGGLER: torchrun, 2 processes, nanoGPT-style log (iter/loss/time/mfu every 10 iters); each rank reads its batches
# from a token file with one small read per sample. After the iter-150 line, rank 1's reads of that file are each
# delayed 15 ms (LD_PRELOAD shim inject17.so, switched on by a flag file), as a slow filesystem on one node would,
# until the end of the run.
CASE=nanogpt_slow_reads; source "$(dirname "$0")/common.sh"
INJ_RANK=1 INJ_FLAG=$RUN/slow.flag INJ_PATH=tokens.bin INJ_READ_US=15000 LD_PRELOAD=/work/lab17b/inject17.so \
  $TR $G/t17.py --fmt nanogpt --steps 450 --log-every 10 --hidden 128 --data /work/lab17b/tokens.bin > out.log 2>&1 & L=$!
waitfor "^iter 150:" out.log 400; touch $RUN/slow.flag
wait $L; echo "exit=$?" >&2
