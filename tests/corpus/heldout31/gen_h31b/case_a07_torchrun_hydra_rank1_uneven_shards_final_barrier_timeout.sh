#!/bin/bash
# torchrun 2 ranks, Hydra-style logging, --pg-timeout 60; rank 1 "runs out of its shard list" at step 2400 (uneven
# shards), leaves the training loop and waits at the final barrier while rank 0 keeps training -> gloo timeouts.
CASE=a07; PORT=42607; source /work/wt31b/tests/corpus/heldout31/gen_h31b/common.sh
TR $T --style hydra --steps 6000 --log-every 100 --exit-early-at 2400 --pg-timeout 60 --ckpt-dir $RUN/outputs/checkpoints --ckpt-every 1000 > out.log 2>&1
