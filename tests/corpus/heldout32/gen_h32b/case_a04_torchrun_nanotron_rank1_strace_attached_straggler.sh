#!/bin/bash
# torchrun 2 ranks, Nanotron-style; after iteration 1500 'strace -f' (output to /dev/null) is attached to rank 1 and stays
# attached until the run ends (a debugging session left running).
CASE=a04; PORT=43604; source /work/wt32b/tests/corpus/heldout32/gen_h32b/common.sh
(TR $T --style nanotron --steps 5000 --log-every 100 --eval-every 2500 --ckpt-dir checkpoints --ckpt-every 2500 > out.log 2>&1 &)
waitfor "iteration: 1500 /" out.log 300; P1=$(rankpid RANK=1); strace -f -qq -o /dev/null -p $P1 & ST=$!; log "strace $ST on $P1"
waitgone 500; kill $ST 2>/dev/null
