#!/bin/bash
# sbatch -N2, srun --label, Composer-style; checkpoints to an ext4 loop file system /mnt/l25b_c12; after the batch-1000
# save the file system is remounted read-only (as the kernel does after an ext4 error): the batch-1500 save fails.
CASE=c12; source /work/wt25b/tests/corpus/heldout25/gen_h25b/common.sh
truncate -s 200M $RUN/../c12.img; mkfs.ext4 -q -F $RUN/../c12.img; mkdir -p /mnt/l25b_c12; mount -o loop $RUN/../c12.img /mnt/l25b_c12
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J composer-tab -N 2 -w lab25n1,lab25n2 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST started \$(date -u +%FT%TZ)"
srun --label nice -n 10 $V/python $T25 --master 127.0.0.1:29712 --style composer --steps 3000 --log-every 100 --ckpt-dir /mnt/l25b_c12/run1 --ckpt-every 500 --epoch-steps 1000
echo "srun exited \$? at \$(date -u +%FT%TZ)"
EOS
sbrun; waitfor "Saved checkpoint ep1-ba1000" composer-tab-$J.out 300
mount -o remount,ro /mnt/l25b_c12; echo "remounted ro $(date -u +%T)"
sbdone composer-tab-$J.out; umount /mnt/l25b_c12; rm -f $RUN/../c12.img
