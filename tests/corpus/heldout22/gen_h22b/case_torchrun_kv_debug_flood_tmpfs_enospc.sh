#!/bin/bash
# torchrun 2 ranks, key=value lines; checkpoints and a per-step debug dump (--debug-dump, 48 KiB per step per rank,
# left on by mistake) share a 160 MiB tmpfs scratch; the flood fills it.
CASE=torchrun_kv_enospc; source /work/wt22b/tests/corpus/heldout22/gen_h22b/common.sh
mkdir scratch; mount -t tmpfs -o size=160M l22b_scratch scratch
$TR $T22 --fmt kv --steps 3000 --log-every 50 --ckpt-dir scratch/ckpt --ckpt-every 300 --debug-dump scratch/debug.log --debug-dump-kb 48 > out.log 2>&1
echo exit=$?; df -h scratch; umount scratch
