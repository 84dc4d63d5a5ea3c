#!/bin/bash
# sbatch -N2 + srun --label, Lightning-like with validation every 500 and checkpoints (no fault).
CASE=g03; source /work/wt28b/tests/corpus/heldout28/gen_h28b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J pl-cls -N 2 -w lab28n2,lab28n3 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST started \$(date -u +%FT%TZ)"
srun --label nice -n 10 $V/python $T --master 127.0.0.1:39657 --style lightning --steps 1500 --eval-every 500 --eval-rounds 3 --ckpt-dir ck --ckpt-every 500
echo "srun exited \$? at \$(date -u +%FT%TZ)"
EOS
sbrun; sbdone pl-cls-$J.out
