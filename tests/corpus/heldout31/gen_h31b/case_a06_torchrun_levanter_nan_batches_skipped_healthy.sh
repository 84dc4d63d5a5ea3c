#!/bin/bash
# torchrun 2 ranks, Levanter-style logging; three corrupt records (an inf feature on rank 0 at steps 1234, 1235 and
# 2890) make the loss/gradients non-finite; the trainer skips those updates and the run completes.
CASE=a06; PORT=42606; source /work/wt31b/tests/corpus/heldout31/gen_h31b/common.sh
TR $T --style levanter --steps 5000 --log-every 100 --nan-at 1234,1235,2890 --nan-skip --eval-every 1000 --ckpt-dir $RUN/checkpoints --ckpt-every 1000 > out.log 2>&1
