#!/bin/bash
# torchrun 2 ranks, Megatron-style; checkpoints go to an ext4 on a loop device; after the iteration-1000 save the
# filesystem is frozen (`fsfreeze -f`, as a snapshot tool that never thaws would): the iteration-1500 save blocks in
# write and the log goes silent; copied after 150 s of silence, then thawed and everything killed.
CASE=c16; source /work/wt23b/tests/corpus/heldout23/gen_h23b/common.sh
mkdir -p /work/lab23b/img /mnt/l23b_c16; IMG=/work/lab23b/img/ckpt_c16.img
rm -f $IMG; truncate -s 200M $IMG; mkfs.ext4 -q $IMG; L=$(losetup -f --show $IMG); mount $L /mnt/l23b_c16
$TR $T23 --fmt mega --steps 3000 --log-every 50 --ckpt-dir /mnt/l23b_c16/ck --ckpt-every 500 --resume > out.log 2>&1 &
TRP=$!
waitfor "successfully saved checkpoint at iteration    1000" out.log; fsfreeze -f /mnt/l23b_c16; echo "frozen $(date -u +%T)"
sleep 5; while [ $(quiet out.log) -lt 150 ]; do sleep 2; done
cp out.log kept.log; echo "copied $(date -u +%T) quiet=$(quiet out.log)"
fsfreeze -u /mnt/l23b_c16; kill $TRP; sleep 5; for q in $(envpids RANK=0) $(envpids RANK=1); do kill -9 $q; done; wait
umount /mnt/l23b_c16; losetup -d $L; rm -f $IMG; rmdir /mnt/l23b_c16
