#!/bin/bash
# torchrun 2 ranks, Python logging with module names; from step 1500 the lr is multiplied by 1e15 (a mis-typed lr
# override): weights blow up, the loss becomes inf/nan and the script raises FloatingPointError.
CASE=c13; PORT=37013; source /work/wt26b/tests/corpus/heldout26/gen_h26b/common.sh
TR $T26 --style pylog --steps 4000 --log-every 100 --lr-bump-at 1500 --ckpt-dir ck --ckpt-every 500 > out.log 2>&1
