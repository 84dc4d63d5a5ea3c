#!/bin/bash
# torchrun 2 ranks, Sockeye-style; a first run (not kept, out1.log) saves params.00001/2 whose metadata holds numpy
# scalars; the kept second run resumes with torch.load defaults (weights_only=True since torch 2.6).
CASE=a09; PORT=43609; source /work/wt32b/tests/corpus/heldout32/gen_h32b/common.sh
TR $T --style sockeye --steps 2000 --log-every 100 --eval-every 1000 --ckpt-dir $RUN/model --ckpt-every 1000 --np-meta > out1.log 2>&1
ls -l $RUN/model
TR $T --style sockeye --steps 6000 --log-every 100 --eval-every 1000 --ckpt-dir $RUN/model --ckpt-every 1000 --np-meta --resume --load-legacy > out.log 2>&1
