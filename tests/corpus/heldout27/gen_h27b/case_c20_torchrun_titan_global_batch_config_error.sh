#!/bin/bash
# torchrun 2 ranks, torchtitan-style; global batch 1000 is not divisible by micro batch 96 x 2 ranks: ValueError at start.
CASE=c20; PORT=38120; source /work/wt27b/tests/corpus/heldout27/gen_h27b/common.sh
TR $T --style titan --steps 2000 --global-batch 1000 > out.log 2>&1
