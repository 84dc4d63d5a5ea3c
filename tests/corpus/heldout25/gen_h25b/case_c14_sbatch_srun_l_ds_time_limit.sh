#!/bin/bash
# sbatch -N2 --time=2, srun --label, DeepSpeed-style; the run needs far longer than 2 minutes: Slurm's time limit ends it.
CASE=c14; source /work/wt25b/tests/corpus/heldout25/gen_h25b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J ds-tabular -N 2 -w lab25n3,lab25n4 --ntasks-per-node=1 --mem=1500M --time=2 --no-requeue -o %x-%j.out
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST started \$(date -u +%FT%TZ)"
srun --label nice -n 10 $V/python $T25 --master 127.0.0.1:29714 --style ds --steps 40000 --log-every 200 --ckpt-dir ck --ckpt-every 2000
echo "srun exited \$? at \$(date -u +%FT%TZ)"
EOS
sbrun; sbdone ds-tabular-$J.out
