#!/bin/bash
# torchrun 2 ranks, NeMo-style; from step 700 a config-flagged "variance feature" takes sqrt of a possibly negative
# quantity -> nan loss -> FloatingPointError.
CASE=a08; PORT=41608; source /work/wt30b/tests/corpus/heldout30/gen_h30b/common.sh
TR $T --style nemo --steps 3000 --log-every 50 --ckpt-dir ck --ckpt-every 500 --sqrt-feature-at 700 > out.log 2>&1
