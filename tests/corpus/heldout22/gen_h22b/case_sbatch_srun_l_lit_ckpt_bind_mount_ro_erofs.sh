#!/bin/bash
# sbatch -N2 (lab22n3,lab22n4), srun -l, Lightning-like lines; the checkpoint directory is bind-mounted onto itself
# and, after step 600, the bind mount is remounted read-only (`mount -o remount,bind,ro`) under the job -> EROFS.
CASE=sbatch_lit_erofs; source /work/wt22b/tests/corpus/heldout22/gen_h22b/common.sh
mkdir ck; mount --bind ck ck
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J lit-ro -N 2 -w lab22n3,lab22n4 --ntasks-per-node=1 --mem=1500M -o slurm-%j.out
echo "job \$SLURM_JOB_ID nodes \$SLURM_JOB_NODELIST start \$(date -u +%FT%TZ)"
srun -l nice -n 10 $V/python $T22 --master 127.0.0.1:29629 --fmt lit --steps 2000 --log-every 50 --ckpt-dir $RUN/ck --ckpt-every 400
echo "srun exit \$? at \$(date -u +%FT%TZ)"
EOS
J=$(sbatch --parsable job.sh); echo job $J
waitfor " 600/2000" slurm-$J.out 600; mount -o remount,bind,ro ck; echo "ro $(date -u +%T)"
sbwait $J; umount ck; echo done
