#!/bin/bash
# torchrun 2 ranks, ColossalAI-style (rich-like logger + tqdm bar), dynamic loss scaling with fp16 gradient overflow
# checks (start 65536, x2 after 200 clean steps, /2 and skip on overflow); evaluation and checkpoints; healthy.
# Run twice: the first run's last windows were slowed by other cases starting (not kept); the rerun is kept.
CASE=a09; PORT=42609; source /work/wt31b/tests/corpus/heldout31/gen_h31b/common.sh
TR $T --style colossalai --steps 5000 --log-every 50 --loss-scale 65536 --eval-every 1000 --ckpt-dir $RUN/ckpt --ckpt-every 1000 > out.log 2>&1
