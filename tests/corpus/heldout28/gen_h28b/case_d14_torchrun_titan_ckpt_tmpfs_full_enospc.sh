#!/bin/bash
# torchrun 2 ranks, torchtitan-like, every checkpoint kept (10 MB padding each) on a 48 MiB tmpfs: the fifth save
# (step 1250) runs out of space (no other fault injected).
CASE=d14; PORT=39614; source /work/wt28b/tests/corpus/heldout28/gen_h28b/common.sh
M=/work/lab28b/mnt/d14; mkdir -p $M; mount -t tmpfs -o size=48m l28b_d14 $M; mkdir $M/ck
TR $T --style titan --steps 2400 --log-every 50 --ckpt-dir $M/ck --ckpt-every 250 --ckpt-pad-mb 10 > out.log 2>&1
umount $M
