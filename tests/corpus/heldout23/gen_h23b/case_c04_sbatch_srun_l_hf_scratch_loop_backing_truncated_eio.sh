#!/bin/bash
# sbatch -N2, srun --label -K, HF-Trainer-style; the token file lives on an ext4 "node-local scratch" (loop device on
# /work/lab23b/img/scratch_c04.img); after step 600 the image's backing file is truncated to 4 MiB (a failing disk:
# the blocks are gone) and the file's page cache dropped (fadvise DONTNEED): reads of the data return EIO.
CASE=c04; source /work/wt23b/tests/corpus/heldout23/gen_h23b/common.sh
mkdir -p /work/lab23b/img /mnt/l23b_c04; IMG=/work/lab23b/img/scratch_c04.img
rm -f $IMG; truncate -s 64M $IMG; mkfs.ext4 -q $IMG; L=$(losetup -f --show $IMG); echo $L > loopdev
mount $L /mnt/l23b_c04; cp $D/tok4m.bin /mnt/l23b_c04/; sync
python3 -c "import os;fd=os.open('/mnt/l23b_c04/tok4m.bin',os.O_RDONLY);os.posix_fadvise(fd,0,0,os.POSIX_FADV_DONTNEED)"
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J bert-mlm -N 2 -w lab23n3,lab23n4 --ntasks-per-node=1 --mem=1500M --no-requeue -o slurm-%j.out
srun --label -K nice -n 10 $V/python $G/t23.py --data /mnt/l23b_c04/tok4m.bin --master 127.0.0.1:29632 --fmt hf --steps 3000 --epoch-steps 500 --log-every 50 --ckpt-dir ck --ckpt-every 500 --eval-every 500 --eval-batches 100
EOS
J=$(sbatch --parsable job.sh); echo job $J
waitfor "'epoch': 1.2}" slurm-$J.out 300
truncate -s 4M $IMG
python3 -c "import os;fd=os.open('/mnt/l23b_c04/tok4m.bin',os.O_RDONLY);os.posix_fadvise(fd,0,0,os.POSIX_FADV_DONTNEED)"; echo "truncated $(date -u +%T)"
sbwait $J; umount /mnt/l23b_c04; losetup -d $L; rm -f $IMG; rmdir /mnt/l23b_c04
