#!/bin/bash
# torchrun 2 ranks, Python-logging style; every rank dumps its batch indices per step (np.save) into a scratch ext4 on
# a loop device made with only 2048 inodes (`mkfs.ext4 -N 2048`, 64 MB): inodes run out -> real ENOSPC with free blocks.
CASE=c08; source /work/wt24b/tests/corpus/heldout24/gen_h24b/common.sh
truncate -s 64M /work/lab24b/c08.img; mkfs.ext4 -q -F -N 2048 /work/lab24b/c08.img; mkdir -p /work/lab24b/c08mnt
mount -o loop /work/lab24b/c08.img /work/lab24b/c08mnt; df -i /work/lab24b/c08mnt >&2
$TR $T24 --fmt pylog --steps 3000 --log-every 100 --dump-dir /work/lab24b/c08mnt/batch_dump --ckpt-dir ck --ckpt-every 500 > out.log 2>&1
echo "exit=$?"; df -i /work/lab24b/c08mnt >&2; umount /work/lab24b/c08mnt; rm -f /work/lab24b/c08.img
