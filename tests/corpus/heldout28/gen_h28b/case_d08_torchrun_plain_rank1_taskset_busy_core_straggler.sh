#!/bin/bash
# torchrun 2 ranks (nice 10), plain prints; after step 700 rank 1 (all threads) is pinned with taskset to CPU 1, where
# a busy loop (nice 0) started by this case runs until the end -> rank 1 gets a small share of CPU 1.
CASE=d08; PORT=39608; source /work/wt28b/tests/corpus/heldout28/gen_h28b/common.sh
(TR $T --style plain --steps 1800 --log-every 50 > out.log 2>&1 &)
waitfor "step 700/" out.log 400; P=$(rankpid RANK=1)
taskset -c 1 bash -c 'while :; do :; done' & B=$!; taskset -a -p -c 1 $P >/dev/null; log "pinned $P busy $B"
waitgone 500; kill $B
