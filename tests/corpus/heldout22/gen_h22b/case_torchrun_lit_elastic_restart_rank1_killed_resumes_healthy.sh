#!/bin/bash
# torchrun --max-restarts 2 (elastic agent), Lightning-like lines, --resume; rank 1 SIGKILLed after step 900; the agent
# restarts both workers, which resume from the step-800 checkpoint and finish.
CASE=torchrun_lit_elastic; source /work/wt22b/tests/corpus/heldout22/gen_h22b/common.sh
nice -n 10 $V/python -m torch.distributed.run --nproc-per-node 2 --max-restarts 2 --rdzv-backend c10d --rdzv-endpoint localhost:0 \
  $T22 --fmt lit --steps 1800 --log-every 50 --ckpt-dir ck --ckpt-every 400 --resume > out.log 2>&1 &
waitfor " 900/1800" out.log; P=$(envpids t22.py RANK=1); kill -9 $P; echo "killed $P $(date -u +%T)"
wait; echo exit=$?
