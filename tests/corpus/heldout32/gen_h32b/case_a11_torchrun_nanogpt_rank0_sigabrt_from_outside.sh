#!/bin/bash
# torchrun 2 ranks, nanoGPT-style (faulthandler enabled); rank 0 sent SIGABRT from outside after iter 2000.
CASE=a11; PORT=43611; source /work/wt32b/tests/corpus/heldout32/gen_h32b/common.sh
(TR $T --style nanogpt --steps 5000 --log-every 50 --eval-every 1000 --ckpt-dir out --ckpt-every 1000 > out.log 2>&1 &)
waitfor "iter 2000:" out.log 300; P0=$(rankpid RANK=0); kill -ABRT $P0; log "abrt $P0"
waitgone 200
