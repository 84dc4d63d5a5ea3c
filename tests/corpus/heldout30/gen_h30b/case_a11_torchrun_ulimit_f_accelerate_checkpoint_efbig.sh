#!/bin/bash
# torchrun 2 ranks launched under 'ulimit -f 4096' (4 MiB per-file limit), Accelerate-logger style, checkpoints every
# 300 with 3 MiB of padding: the first save (~6.4 MB) exceeds the limit -> EFBIG.
CASE=a11; PORT=41611; source /work/wt30b/tests/corpus/heldout30/gen_h30b/common.sh
(ulimit -f 4096; TR $T --style accelerate --steps 2000 --log-every 50 --ckpt-dir ck --ckpt-every 300 --ckpt-pad-mb 3 > out.log 2>&1)
