#!/bin/bash
# torchrun 2 ranks, detectron2-like, eval every 300; from step 600 batches are standardised with float64 statistics
# -> the Linear layer gets Double input: RuntimeError (dtype mismatch).
CASE=k02; PORT=40602; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh
TR $T --style detectron2 --steps 2400 --log-every 50 --eval-every 300 --dtype-bug-at 600 > out.log 2>&1
