#!/bin/bash
# torchrun 2 ranks, Accelerate-logger style, FutureWarnings, 30 mislabelled batches from step 1000 (loss spike that
# recovers), eval and checkpoints.
CASE=a10; PORT=41610; source /work/wt30b/tests/corpus/heldout30/gen_h30b/common.sh
TR $T --style accelerate --steps 2400 --log-every 50 --ckpt-dir ck --ckpt-every 600 --eval-every 600 --noisy --spike-at 1000 > out.log 2>&1
