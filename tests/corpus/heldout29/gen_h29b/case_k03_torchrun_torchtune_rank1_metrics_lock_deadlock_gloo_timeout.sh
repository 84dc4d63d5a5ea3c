#!/bin/bash
# torchrun 2 ranks, torchtune-like (tqdm bar), --pg-timeout 60; at step 800 rank 1 re-enters a non-reentrant metrics
# lock (self-deadlock) and stops calling collectives -> rank 0's gloo collective times out.
CASE=k03; PORT=40603; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh
TR $T --style torchtune --steps 3000 --log-every 50 --ckpt-dir ck --ckpt-every 500 --pg-timeout 60 --lock-at 800 > out.log 2>&1
