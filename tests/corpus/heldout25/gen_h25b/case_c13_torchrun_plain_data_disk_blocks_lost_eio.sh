#!/bin/bash
# torchrun 2 ranks, plain print lines; the feature file lives on an ext4 loop device (node-local scratch); at step ~800
# the image's backing file is truncated to 4 MiB (the disk's blocks are gone) and the file's page cache dropped
# (fadvise DONTNEED): the next reads return EIO.
CASE=c13; source /work/wt25b/tests/corpus/heldout25/gen_h25b/common.sh
IMG=/work/lab25b/c13.img; rm -f $IMG; truncate -s 64M $IMG; mkfs.ext4 -q $IMG; L=$(losetup -f --show $IMG)
mkdir -p /mnt/l25b_c13; mount $L /mnt/l25b_c13; cp $D/feat.bin /mnt/l25b_c13/; sync
($TR $G/t25.py --data /mnt/l25b_c13/feat.bin --style plain --steps 3000 --log-every 100 > out.log 2>&1 &)
waitfor "step=800/" out.log 300
truncate -s 4M $IMG
python3 -c "import os;fd=os.open('/mnt/l25b_c13/feat.bin',os.O_RDONLY);os.posix_fadvise(fd,0,0,os.POSIX_FADV_DONTNEED)"; echo "truncated $(date -u +%T)"
for i in $(seq 1 150); do [ -z "$(envpids RANK=0)$(envpids RANK=1)" ] && break; sleep 2; done; sleep 3
umount -l /mnt/l25b_c13; losetup -d $L; rm -f $IMG
