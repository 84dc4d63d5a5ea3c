#!/bin/bash
# torchrun 2 ranks, Composer-style: --global-batch 1000 with batch 96 x 2 ranks x accum 2 -> ValueError at start.
CASE=a09; PORT=41609; source /work/wt30b/tests/corpus/heldout30/gen_h30b/common.sh
TR $T --style composer --steps 3000 --grad-accum 2 --global-batch 1000 > out.log 2>&1
