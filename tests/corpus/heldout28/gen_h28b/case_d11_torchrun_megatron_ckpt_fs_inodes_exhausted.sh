#!/bin/bash
# torchrun 2 ranks, Megatron-like, checkpoints every 400 to a 64 MiB ext4 loop fs made with only 128 inodes; after the
# step-400 save another writer creates small files until no inode is left: the step-800 save fails (ENOSPC, df shows space).
CASE=d11; PORT=39611; source /work/wt28b/tests/corpus/heldout28/gen_h28b/common.sh
truncate -s 64M fs.img; mkfs.ext4 -q -N 128 fs.img; M=/work/lab28b/mnt/d11; mkdir -p $M; mount -o loop fs.img $M; mkdir $M/ck $M/tmp
(TR $T --style megatron --steps 2400 --log-every 100 --ckpt-dir $M/ck --ckpt-every 400 > out.log 2>&1 &)
waitfor "successfully saved checkpoint at iteration      400" out.log 400; i=0; while touch $M/tmp/f$i 2>/dev/null; do i=$((i+1)); done; log "files $i"; df -i $M
waitgone 300; umount $M
