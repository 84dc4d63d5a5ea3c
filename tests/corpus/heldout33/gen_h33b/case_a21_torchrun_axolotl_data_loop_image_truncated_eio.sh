#!/bin/bash
# torchrun 2 ranks, axolotl-style, features read with os.pread from an ext4 loop fs: at step 1500 the loop device's
# backing image is truncated to 1 MiB and the page cache dropped (echo 1 > /proc/sys/vm/drop_caches), so reads of the
# feature file's blocks fail.
CASE=a21; PORT=44621; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh
M=$(mkloop a21data 40); cp /work/lab33b/data/feat.bin $M/feat.bin; sync
(TR $T --style axolotl --data $M/feat.bin --read pread --steps 4000 --epoch-steps 800 --log-every 50 --eval-every 1 --ckpt-dir outputs/out --ckpt-every 800 > out.log 2>&1 &)
waitfor "'epoch': 1.88}" out.log 300; truncate -s 1M /work/lab33b/img/a21data.img; echo 1 > /proc/sys/vm/drop_caches; log "truncated+dropped"
waitgone 200; umount $M 2>/dev/null || umount -l $M; rm -f /work/lab33b/img/a21data.img
