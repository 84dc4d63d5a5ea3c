#!/bin/bash
# (a13 redone without TORCH_DISTRIBUTED_DEBUG=DETAIL, which crashed DDP's constructor) torchrun 2 ranks, OLMo-style,
# TORCH_CPP_LOG_LEVEL=INFO; rank 0's metrics uploader (to 127.0.0.1:43692, nothing listening: retried warnings) raises in
# its thread at step 1500 and dies; training does not depend on it and completes.
CASE=a13b; PORT=43619; source /work/wt32b/tests/corpus/heldout32/gen_h32b/common.sh
export TORCH_CPP_LOG_LEVEL=INFO
TR $T --style olmo --steps 3500 --log-every 100 --eval-every 1000 --ckpt-dir $RUN/ckpt --ckpt-every 1000 --uploader 127.0.0.1:43692 --uploader-die-at 1500 > out.log 2>&1
