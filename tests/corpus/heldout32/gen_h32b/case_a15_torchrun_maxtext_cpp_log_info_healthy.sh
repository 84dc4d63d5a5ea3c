#!/bin/bash
# torchrun 2 ranks, MaxText-style absl logging, TORCH_CPP_LOG_LEVEL=INFO TORCH_DISTRIBUTED_DEBUG=INFO, FutureWarnings,
# eval + checkpoints; nothing injected.
CASE=a15; PORT=43615; source /work/wt32b/tests/corpus/heldout32/gen_h32b/common.sh
export TORCH_DISTRIBUTED_DEBUG=INFO TORCH_CPP_LOG_LEVEL=INFO
TR $T --style maxtext --steps 4000 --log-every 100 --eval-every 1000 --ckpt-dir $RUN/mlp48 --ckpt-every 1000 --noisy > out.log 2>&1
