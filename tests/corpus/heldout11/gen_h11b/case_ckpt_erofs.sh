#!/bin/bash
# h11b_ckpt_readonly_fs: checkpoint dir on a tmpfs that is remounted read-only mid-run (as a filesystem does after errors)
G=/work/wt11b/tests/corpus/heldout11/gen_h11b; V=/work/lab11b/venv/bin
D=/work/lab11b/runs/erofs; umount /work/lab11b/mnt_ckpt 2>/dev/null; rm -rf $D; mkdir -p $D /work/lab11b/mnt_ckpt; cd $D
mount -t tmpfs -o size=64m tmpfs /work/lab11b/mnt_ckpt
$V/torchrun --nproc-per-node 2 --master-port 29616 $G/train_lm.py --data /work/lab11b/tokens.bin \
  --steps 3000 --log-every 20 --save-every 100 --ckpt-dir /work/lab11b/mnt_ckpt/run1 > out.log 2>&1 &
TR=$!
sleep 24; mount -o remount,ro /work/lab11b/mnt_ckpt && echo "remounted ro" >&2
wait $TR; echo "rc=$?" >&2
umount /work/lab11b/mnt_ckpt
