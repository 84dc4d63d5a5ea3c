#!/bin/bash
# torchrun 2 ranks, DeepSpeed-style, TORCH_CPP_LOG_LEVEL=INFO (c10d/gloo info lines); checkpoints every 600; nothing injected.
CASE=c24; PORT=38124; source /work/wt27b/tests/corpus/heldout27/gen_h27b/common.sh
TORCH_CPP_LOG_LEVEL=INFO TR $T --style deepspeed --steps 2000 --log-every 100 --ckpt-dir ck --ckpt-every 600 > out.log 2>&1
