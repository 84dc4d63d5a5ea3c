#!/bin/bash
# NONE: HF Trainer under torchrun --max-restarts 1 with checkpoints every 100 steps and resume_from_checkpoint on start.
# Once checkpoint-200 exists, rank 1 is SIGKILLed; torchrun restarts the worker group, the Trainer resumes from
# checkpoint-200 and the run finishes.
CASE=hf_elastic_recovers; source "$(dirname "$0")/common.sh"
nice -n 10 $V/python -m torch.distributed.run --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint localhost:0 --max-restarts 1 \
  $G/hf16.py --steps 400 --log-steps 20 --save-steps 100 --resume > out.log 2>&1 & L=$!
for i in $(seq 1 200); do [ -f hf_out/checkpoint-200/trainer_state.json ] && break; sleep 0.5; done
sleep 1; kill -9 $(rankpid hf16.py 1)
wait $L; echo "exit=$?" >&2
