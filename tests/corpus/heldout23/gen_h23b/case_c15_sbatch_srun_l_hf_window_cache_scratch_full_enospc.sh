#!/bin/bash
# sbatch -N2, srun --label -K, HF-Trainer-style; each rank writes a 40 MiB window cache per epoch to node-local
# scratch (a 100 MiB ext4 on a loop device): the third epoch's cache does not fit -> ENOSPC.
CASE=c15; source /work/wt23b/tests/corpus/heldout23/gen_h23b/common.sh
mkdir -p /work/lab23b/img /mnt/l23b_c15; IMG=/work/lab23b/img/scratch_c15.img
rm -f $IMG; truncate -s 100M $IMG; mkfs.ext4 -q -m 0 $IMG; L=$(losetup -f --show $IMG); echo $L > loopdev
mount $L /mnt/l23b_c15
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J bert-mlm -N 2 -w lab23n3,lab23n4 --ntasks-per-node=1 --mem=1500M --no-requeue -o slurm-%j.out
srun --label -K nice -n 10 $V/python $T23 --master 127.0.0.1:29635 --fmt hf --steps 3000 --epoch-steps 600 --log-every 50 --ckpt-dir ck --ckpt-every 600 --cache-dir /mnt/l23b_c15/cache --cache-mb 40
EOS
J=$(sbatch --parsable job.sh); echo job $J
sbwait $J; df -h /mnt/l23b_c15; umount /mnt/l23b_c15; losetup -d $L; rm -f $IMG; rmdir /mnt/l23b_c15
