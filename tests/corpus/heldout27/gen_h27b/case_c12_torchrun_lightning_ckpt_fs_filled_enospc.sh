#!/bin/bash
# torchrun 2 ranks, Lightning-style; checkpoints (6 MB padding) every 400 to a 40 MiB ext4 loop fs; after the step-400
# save another writer fills that fs (dd until full): the step-800 save fails.
CASE=c12; PORT=38112; source /work/wt27b/tests/corpus/heldout27/gen_h27b/common.sh
truncate -s 40M fs.img; mkfs.ext4 -q fs.img; M=/work/lab27b/mnt_c12; mkdir -p $M; mount -o loop fs.img $M; mkdir $M/ck
(TR $T --style lightning --steps 2400 --ckpt-dir $M/ck --ckpt-every 400 --ckpt-pad-mb 6 --eval-every 400 > out.log 2>&1 &)
waitfor "global step 400" out.log 400; dd if=/dev/zero of=$M/scratch.tmp bs=1M 2>/dev/null; log filled; waitgone 300; umount $M
