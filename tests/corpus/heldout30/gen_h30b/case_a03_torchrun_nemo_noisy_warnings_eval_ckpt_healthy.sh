#!/bin/bash
# torchrun 2 ranks, NeMo/PTL-style, FutureWarnings, retried tracker uploads, caught mirror misses, eval and checkpoints.
CASE=a03; PORT=41603; source /work/wt30b/tests/corpus/heldout30/gen_h30b/common.sh
mkdir -p mirror; TR $T --style nemo --steps 2000 --log-every 50 --ckpt-dir ck --ckpt-every 500 --eval-every 500 --noisy --tracker-flaky --mirror $RUN/mirror > out.log 2>&1
