#!/bin/bash
# torchrun 2 ranks, Lightning-style, autograd anomaly detection on; from step 600 a config flag adds sqrt(h - mean(h)),
# negative for part of the batch: NaN, and anomaly detection raises in backward.
CASE=c18; PORT=38118; source /work/wt27b/tests/corpus/heldout27/gen_h27b/common.sh
TR $T --style lightning --steps 2000 --anomaly --sqrt-feature-at 600 --eval-every 500 > out.log 2>&1
