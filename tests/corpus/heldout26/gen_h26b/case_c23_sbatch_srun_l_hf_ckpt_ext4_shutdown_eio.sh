#!/bin/bash
# sbatch -N2 (lab26n3,lab26n4) + srun --label, HF Trainer-style dicts + tqdm; checkpoints (fsynced) every 600 steps to
# an ext4 loop file system; after the step-1200 save the file system is shut down with the EXT4_IOC_SHUTDOWN ioctl
# (flag NOLOGFLUSH, what a failing disk or 'xfs_io -x -c shutdown' does): every later I/O on it returns EIO.
CASE=c23; source /work/wt26b/tests/corpus/heldout26/gen_h26b/common.sh
truncate -s 128M img; mkfs.ext4 -q img; L=$(losetup -f --show img); M=/work/lab26b/mnt_c23; mkdir -p $M; mount $L $M
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J hf-tab -N 2 -w lab26n3,lab26n4 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST started \$(date -u +%FT%TZ)"
srun --label nice -n 10 $V/python $T26 --master 127.0.0.1:37023 --style hf --steps 4000 --log-every 100 --ckpt-dir $M/out --ckpt-every 600 --fsync
echo "srun exited \$? at \$(date -u +%FT%TZ)"
EOS
sbrun; waitfor "checkpoint-1200/config.json" hf-tab-$J.out 300
python3 -c "import fcntl,os,struct; fd=os.open('$M',os.O_RDONLY); fcntl.ioctl(fd,0x8004587D,struct.pack('I',2))"; log "ext4 shutdown"
sbdone hf-tab-$J.out
umount $M; losetup -d $L; rmdir $M
