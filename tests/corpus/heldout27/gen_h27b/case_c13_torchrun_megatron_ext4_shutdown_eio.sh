#!/bin/bash
# torchrun 2 ranks, Megatron-style; checkpoints every 400 to a 64 MiB ext4 loop fs; after the iteration-800 save the fs
# is shut down (EXT4_IOC_SHUTDOWN, as ext4 does on a failing disk): the next save gets EIO.
CASE=c13; PORT=38113; source /work/wt27b/tests/corpus/heldout27/gen_h27b/common.sh
truncate -s 64M fs.img; mkfs.ext4 -q fs.img; M=/work/lab27b/mnt_c13; mkdir -p $M; mount -o loop fs.img $M; mkdir $M/ck
(TR $T --style megatron --steps 2400 --log-every 100 --ckpt-dir $M/ck --ckpt-every 400 > out.log 2>&1 &)
waitfor "successfully saved checkpoint at iteration      800" out.log 400
python3 -c "import fcntl,os,struct; fd=os.open('$M',os.O_RDONLY); fcntl.ioctl(fd,0x8004587D,struct.pack('I',0))"; log shutdown
waitgone 300; umount $M
