#!/bin/bash
# torchrun 2 ranks, DeepSpeed-like from both ranks, checkpoints every 400; rank 1 gets SIGILL after step 900.
CASE=k09; PORT=40609; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh
(TR $T --style deepspeed --steps 3000 --log-every 50 --ckpt-dir ck --ckpt-every 400 > out.log 2>&1 &)
waitfor "Rank 1\] step=900," out.log 300; P=$(rankpid RANK=1); kill -ILL $P; log "ill $P"; waitgone 200
