#!/bin/bash
# torchrun 2 ranks, HF Trainer-style; TORCH_CPP_LOG_LEVEL=INFO (c10d's own INFO lines), --tb (tensorboard missing:
# logged traceback, continues); nothing injected (c17 without TORCH_DISTRIBUTED_DEBUG=DETAIL).
CASE=c24; PORT=37024; source /work/wt26b/tests/corpus/heldout26/gen_h26b/common.sh
TORCH_CPP_LOG_LEVEL=INFO TR $T26 --style hf --steps 2000 --log-every 100 --ckpt-dir ck --ckpt-every 1000 --tb > out.log 2>&1
