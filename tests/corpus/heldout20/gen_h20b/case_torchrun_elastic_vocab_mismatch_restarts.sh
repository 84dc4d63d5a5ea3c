#!/bin/bash
# APPLICATION: torchrun --max-restarts 2; --vocab 4096 for shards with token ids up to 8191: the embedding lookup fails
# with IndexError at the first step; the agent restarts the worker group twice, each attempt fails the same way.
CASE=elastic_vocab; source "$(dirname "$0")/common.sh"
nice -n 10 $V/python -m torch.distributed.run --nproc-per-node 2 --max-restarts 2 --rdzv-backend c10d --rdzv-endpoint localhost:0 \
  $T20 --vocab 4096 --steps 1000 --log-every 25 --ckpt-every 100 --ckpt-dir $RUN/ckpt --resume > out.log 2>&1
echo "exit=$?" >&2
