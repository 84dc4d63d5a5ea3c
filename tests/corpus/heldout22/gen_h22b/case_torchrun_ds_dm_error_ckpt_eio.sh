#!/bin/bash
# torchrun 2 ranks, DeepSpeed-like [Rank N] lines; checkpoints go to an ext4 fs (mounted -o sync) on a device-mapper
# device over a loop file; after step 700 the dm table is swapped to the `error` target (a failing disk) -> EIO/EROFS.
CASE=torchrun_ds_dmerr; source /work/wt22b/tests/corpus/heldout22/gen_h22b/common.sh
truncate -s 200M disk.img; LOOP=$(losetup -f --show disk.img); SZ=$(blockdev --getsz $LOOP)
dmsetup create l22b_ckpt --table "0 $SZ linear $LOOP 0"; mkfs.ext4 -q /dev/mapper/l22b_ckpt
mkdir ckmnt; mount -o sync,errors=continue /dev/mapper/l22b_ckpt ckmnt
$TR $T22 --fmt ds --steps 2000 --log-every 50 --ckpt-dir ckmnt/ckpt --ckpt-every 350 > out.log 2>&1 &
waitfor "step=750," out.log
dmsetup suspend l22b_ckpt; dmsetup load l22b_ckpt --table "0 $SZ error"; dmsetup resume l22b_ckpt; echo "dm error $(date -u +%T)"
wait; echo exit=$?
umount -l ckmnt; dmsetup remove -f l22b_ckpt; losetup -d $LOOP; rm -f disk.img
