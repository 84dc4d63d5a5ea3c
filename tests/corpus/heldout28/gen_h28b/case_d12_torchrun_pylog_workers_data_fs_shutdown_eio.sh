#!/bin/bash
# torchrun 2 ranks, Python logging, 1 DataLoader worker per rank reading samples with os.pread from a feature file on a
# 64 MiB ext4 loop fs; after step 700 that fs is shut down (EXT4_IOC_SHUTDOWN, as ext4 does on a failing disk): reads fail EIO.
CASE=d12; PORT=39612; source /work/wt28b/tests/corpus/heldout28/gen_h28b/common.sh
truncate -s 64M fs.img; mkfs.ext4 -q fs.img; M=/work/lab28b/mnt/d12; mkdir -p $M; mount -o loop fs.img $M; cp /work/lab28b/data/feat.bin $M/
(TR $T --style pylog --steps 2400 --log-every 100 --workers 1 --read pread --data $M/feat.bin > out.log 2>&1 &)
waitfor "step 700/" out.log 400
python3 -c "import fcntl,os,struct; fd=os.open('$M',os.O_RDONLY); fcntl.ioctl(fd,0x8004587D,struct.pack('I',0))"; log shutdown
waitgone 300; umount $M
