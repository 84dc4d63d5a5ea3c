#!/bin/bash
# torchrun 2 ranks, ESPnet-style, features read with O_DIRECT from a copy on an ext4 loop fs; after step 1500 rank 1
# is put in a blkio cgroup (v1) with read_iops_device 1500 on that loop device until the run ends.
CASE=a11; PORT=42611; source /work/wt31b/tests/corpus/heldout31/gen_h31b/common.sh
M=$(mkloop a11 24); cp /work/lab31b/data/feat.bin $M/feat.bin; D=$(losetup -j /work/lab31b/img/a11.img | cut -d: -f1); MM=$(cat /sys/block/$(basename $D)/dev)
(TR $T --style espnet --steps 4000 --log-every 100 --data $M/feat.bin --read direct --epoch-steps 1000 --eval-every 1 --ckpt-dir $RUN/exp/asr_train --ckpt-every 1000 > out.log 2>&1 &)
waitfor "1401-1500batch" out.log 300; P=$(rankpid RANK=1); C=/sys/fs/cgroup/blkio/l31b_a11; mkdir -p $C; echo "$MM 1500" > $C/blkio.throttle.read_iops_device
for t in $(ls /proc/$P/task); do echo $t > $C/tasks; done; log "throttled $P on $MM"
waitgone 500; sleep 2; rmdir $C; rmloop a11
