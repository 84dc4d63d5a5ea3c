#!/bin/bash
# torchrun --max-restarts 1, OpenNMT-py-style; checkpoints every 500 with --resume; after the step-1500 checkpoint
# rank 1 is SIGKILLed: torchrun restarts the worker group, which resumes from step 1500 and finishes.
# First attempt: the restarted workers hung in gloo's connectFullMesh (stale addresses in the agent's store); stopped
# by hand, not kept. t31.py then got a per-attempt PrefixStore; the second attempt is the kept log.
CASE=a10; PORT=42610; source /work/wt31b/tests/corpus/heldout31/gen_h31b/common.sh
(TR --max-restarts 1 $T --style opennmt --steps 5000 --log-every 100 --eval-every 1000 --ckpt-dir $RUN/models --ckpt-every 500 --resume > out.log 2>&1 &)
waitfor "model_step_1500.pt" out.log 300; sleep 3; P=$(rankpid RANK=1); kill -9 $P; log "killed $P"; sleep 10; waitgone 400; sleep 2
