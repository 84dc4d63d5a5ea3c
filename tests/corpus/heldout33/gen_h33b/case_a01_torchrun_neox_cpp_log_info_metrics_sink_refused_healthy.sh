#!/bin/bash
# torchrun 2 ranks, GPT-NeoX-style, FutureWarnings, TORCH_CPP_LOG_LEVEL=INFO, rank 0's metrics uploader to a port where
# nothing listens (refused, retried); validation and checkpoints; nothing else injected (healthy).
CASE=a01; PORT=44601; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh
export TORCH_CPP_LOG_LEVEL=INFO
(TR $T --style neox --steps 3000 --epoch-steps 500 --log-every 100 --eval-every 1 --ckpt-dir checkpoints --ckpt-every 1000 --noisy --uploader 127.0.0.1:44699 > out.log 2>&1 &)
sleep 5; waitgone 500
