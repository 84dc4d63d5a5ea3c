#!/bin/bash
# torchrun 2 ranks, HF Trainer-style with tqdm; checkpoints every 500 to a 64 MiB ext4 loop fs which is remounted
# read-only after the step-500 save: the step-1000 save fails (EROFS).
CASE=c14; PORT=38114; source /work/wt27b/tests/corpus/heldout27/gen_h27b/common.sh
truncate -s 64M fs.img; mkfs.ext4 -q fs.img; M=/work/lab27b/mnt_c14; mkdir -p $M; mount -o loop fs.img $M; mkdir $M/out
(TR $T --style hf --steps 2400 --log-every 100 --ckpt-dir $M/out --ckpt-every 500 > out.log 2>&1 &)
waitfor "Saving model checkpoint to $M/out/step_500" out.log 400; sleep 3; mount -o remount,ro $M; log ro; waitgone 300; umount $M
