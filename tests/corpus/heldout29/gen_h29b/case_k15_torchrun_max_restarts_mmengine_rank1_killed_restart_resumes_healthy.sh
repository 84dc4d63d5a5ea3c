#!/bin/bash
# torchrun --max-restarts 1, MMEngine-like, checkpoints every 300 with --resume; after iteration 700 rank 1 is
# SIGKILLed: torchrun restarts both workers, which resume from the step-600 checkpoint and finish.
CASE=k15; PORT=40615; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh
(TR --max-restarts 1 $T --style mmengine --steps 1500 --log-every 50 --ckpt-dir ck --ckpt-every 300 --resume > out.log 2>&1 &)
waitfor "Iter(train) \[ 700/" out.log 300; P=$(rankpid RANK=1); kill -KILL $P; log "killed $P"; sleep 5; waitgone 400
