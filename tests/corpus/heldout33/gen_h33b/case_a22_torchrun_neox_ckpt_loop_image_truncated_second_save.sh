#!/bin/bash
# torchrun 2 ranks, GPT-NeoX-style, checkpoints on an ext4 loop fs (64 MiB): after the iteration-1000 checkpoint the
# loop device's backing image is truncated to 1 MiB and the page cache dropped, so the iteration-2000 save's metadata
# reads fail.
CASE=a22; PORT=44622; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh
M=$(mkloop a22ck 64)
(TR $T --style neox --steps 4000 --epoch-steps 500 --log-every 100 --eval-every 1 --ckpt-dir $M/checkpoints --ckpt-every 1000 > out.log 2>&1 &)
waitfor "successfully saved checkpoint at iteration    1000" out.log 300; sync; truncate -s 1M /work/lab33b/img/a22ck.img; echo 1 > /proc/sys/vm/drop_caches; log "truncated+dropped"
waitgone 200; umount $M 2>/dev/null || umount -l $M; rm -f /work/lab33b/img/a22ck.img
