#!/bin/bash
# torchrun --max-restarts 1, NeMo-style, checkpoints every 300 with --resume; after step 800 rank 0 is SIGKILLed:
# torchrun restarts both workers, which resume from the step-600 checkpoint and finish. As run: the restarted workers
# hung in start-up (no output for ~60 s) and the run was stopped by hand; not kept.
CASE=a05; PORT=41605; source /work/wt30b/tests/corpus/heldout30/gen_h30b/common.sh
(TR --max-restarts 1 $T --style nemo --steps 1800 --log-every 50 --ckpt-dir ck --ckpt-every 300 --resume > out.log 2>&1 &)
sleep 10; waitfor "global step 600:" out.log 300; sleep 5; P=$(rankpid RANK=0); kill -KILL $P; log "killed $P"; sleep 5; waitgone 400
