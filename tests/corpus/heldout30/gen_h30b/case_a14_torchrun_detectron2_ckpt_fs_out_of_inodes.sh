#!/bin/bash
# torchrun 2 ranks, detectron2-like, checkpoints every 200 to a 32 MiB ext4 loop fs made with only 64 inodes, on which
# a "shard cache" of small files was unpacked before the run -> a checkpoint mkdir/open fails with ENOSPC (no inodes).
CASE=a14; PORT=41614; source /work/wt30b/tests/corpus/heldout30/gen_h30b/common.sh
M=$(mkloop a14 32 "-N 64"); mkdir -p $M/cache; for i in $(seq 1 50); do echo $i > $M/cache/shard-$i.idx; done; df -i $M
TR $T --style detectron2 --steps 3000 --log-every 50 --ckpt-dir $M/ck --ckpt-every 200 > out.log 2>&1
df -i $M; rmloop a14
