#!/bin/bash
# torchrun 2 ranks, fairseq-style; checkpoints (8 MB optimizer padding) every 500 updates to a 64 MiB ext4 loop file
# system; after update 1000's save another writer fills the file system (dd), so the update-1500 save fails.
CASE=c10; PORT=37010; source /work/wt26b/tests/corpus/heldout26/gen_h26b/common.sh
truncate -s 64M img; mkfs.ext4 -q img; L=$(losetup -f --show img); mkdir -p /work/lab26b/mnt_c10; mount $L /work/lab26b/mnt_c10
(TR $T26 --style fairseq --steps 4000 --log-every 100 --ckpt-dir /work/lab26b/mnt_c10/ckpt --ckpt-every 500 --ckpt-pad-mb 8 > out.log 2>&1 &)
waitfor "checkpoint_1000.pt" out.log 300
dd if=/dev/zero of=/work/lab26b/mnt_c10/other_job_shard.bin bs=1M 2>/dev/null; log filled
for i in $(seq 1 150); do [ -z "$(envpids RANK=0)$(envpids RANK=1)" ] && break; sleep 2; done; sleep 3
umount /work/lab26b/mnt_c10; losetup -d $L; rmdir /work/lab26b/mnt_c10
