#!/bin/bash
# torchrun 2 ranks, Horovod-style; checkpoints on an ext4 (no journal) on a sparse 64 MiB loop file that lives on a
# 10 MiB tmpfs: once the backing store is full the loop device fails writes -> EIO at a later save's fsync.
CASE=a16; PORT=43616; source /work/wt32b/tests/corpus/heldout32/gen_h32b/common.sh
B=/work/lab32b/mnt/a16b; M=/work/lab32b/mnt/a16; mkdir -p $B $M; umount $M 2>/dev/null; umount $B 2>/dev/null
mount -t tmpfs -o size=10m tmpfs $B; truncate -s 64M $B/ckfs.img; mkfs.ext4 -q -F -O ^has_journal $B/ckfs.img; mount -o loop $B/ckfs.img $M; df -h $B $M
TR $T --style horovod --steps 5000 --epoch-steps 400 --log-every 50 --eval-every 1 --ckpt-dir $M/ckpt --ckpt-every 800 --ckpt-pad-mb 2 > out.log 2>&1
df -h $B $M; umount $M; umount $B
