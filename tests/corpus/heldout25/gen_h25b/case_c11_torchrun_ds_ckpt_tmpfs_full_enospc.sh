#!/bin/bash
# torchrun 2 ranks, DeepSpeed-style; checkpoints (with 24 MB of optimizer padding) every 400 steps to a 64 MiB tmpfs
# /mnt/l25b_c11 that nothing prunes: the third save runs out of space.
CASE=c11; source /work/wt25b/tests/corpus/heldout25/gen_h25b/common.sh
mkdir -p /mnt/l25b_c11; mount -t tmpfs -o size=64m l25b_c11 /mnt/l25b_c11
($TR $T25 --style ds --steps 3000 --log-every 100 --ckpt-dir /mnt/l25b_c11/ds_run --ckpt-every 400 --ckpt-pad-mb 24 > out.log 2>&1 &)
sleep 10; for i in $(seq 1 200); do [ -z "$(envpids RANK=0)" ] && break; sleep 2; done; sleep 5; umount /mnt/l25b_c11
