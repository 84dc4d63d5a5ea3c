#!/bin/bash
# torchrun 2 ranks, litgpt-style; checkpoints (padded to ~6.6 MB) on a 14 MiB tmpfs -> the third save runs out of space.
CASE=a12; PORT=43612; source /work/wt32b/tests/corpus/heldout32/gen_h32b/common.sh
M=/work/lab32b/mnt/a12; mkdir -p $M; umount $M 2>/dev/null; mount -t tmpfs -o size=14m tmpfs $M
TR $T --style litgpt --steps 5000 --log-every 50 --eval-every 500 --ckpt-dir $M/out/pretrain --ckpt-every 800 --ckpt-pad-mb 3 > out.log 2>&1
df -h $M; umount $M
