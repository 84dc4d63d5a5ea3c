#!/bin/bash
# torchrun --max-restarts 1, torchtitan-like, checkpoints every 300, --resume; after step 800 rank 1 is SIGKILLed:
# torchrun restarts both workers, they resume from the step-600 checkpoint and finish.
CASE=d05; PORT=39605; source /work/wt28b/tests/corpus/heldout28/gen_h28b/common.sh
(TR --max-restarts 1 $T --style titan --steps 1800 --log-every 50 --ckpt-dir $RUN/ck --ckpt-every 300 --resume > out.log 2>&1 &)
waitfor "step:   800" out.log 400; P=$(rankpid RANK=1); kill -KILL $P; log "killed $P"; sleep 5; waitgone 500
