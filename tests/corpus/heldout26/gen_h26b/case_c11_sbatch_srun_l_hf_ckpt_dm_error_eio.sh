#!/bin/bash
# sbatch -N2 (lab26n3,lab26n4) + srun --label, HF Trainer-style dicts + tqdm; checkpoints (fsynced) every 600 steps to
# ext4 on a device-mapper linear device over a loop file; after the step-1200 save the dm table is swapped to the
# 'error' target (every I/O fails with EIO), so the step-1800 save fails.
CASE=c11; source /work/wt26b/tests/corpus/heldout26/gen_h26b/common.sh
truncate -s 128M img; L=$(losetup -f --show img); S=$(blockdev --getsz $L)
dmsetup create l26b_c11 --table "0 $S linear $L 0"; mkfs.ext4 -q /dev/mapper/l26b_c11; mkdir -p /mnt/l26b_c11; mount /dev/mapper/l26b_c11 /mnt/l26b_c11
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J hf-tab -N 2 -w lab26n3,lab26n4 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST started \$(date -u +%FT%TZ)"
srun --label nice -n 10 $V/python $T26 --master 127.0.0.1:37011 --style hf --steps 4000 --log-every 100 --ckpt-dir /mnt/l26b_c11/out --ckpt-every 600 --fsync
echo "srun exited \$? at \$(date -u +%FT%TZ)"
EOS
sbrun; waitfor "checkpoint-1200/config.json" hf-tab-$J.out 300
dmsetup suspend l26b_c11; dmsetup load l26b_c11 --table "0 $S error"; dmsetup resume l26b_c11; log "dm error"
sbdone hf-tab-$J.out
umount -l /mnt/l26b_c11; dmsetup remove l26b_c11 || dmsetup remove -f l26b_c11; losetup -d $L; rmdir /mnt/l26b_c11
