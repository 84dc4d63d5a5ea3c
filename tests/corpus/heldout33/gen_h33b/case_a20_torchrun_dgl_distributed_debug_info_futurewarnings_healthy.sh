#!/bin/bash
# torchrun 2 ranks, DGL-dist-style, TORCH_DISTRIBUTED_DEBUG=INFO, TORCH_CPP_LOG_LEVEL=INFO, FutureWarnings, evaluation and
# checkpoints; nothing injected (healthy).
CASE=a20; PORT=44620; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh
export TORCH_DISTRIBUTED_DEBUG=INFO TORCH_CPP_LOG_LEVEL=INFO
(TR $T --style dgl --steps 2400 --epoch-steps 400 --log-every 100 --eval-every 1 --ckpt-dir ckpt --ckpt-every 800 --noisy > out.log 2>&1 &)
sleep 5; waitgone 400
