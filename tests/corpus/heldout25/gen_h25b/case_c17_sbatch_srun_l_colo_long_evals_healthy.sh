#!/bin/bash
# sbatch -N2, srun --label, ColossalAI-style; evaluation every 800 steps over 150 batches with a 0.12 s per-batch metric
# cost (about 20 s of no training output each); nothing injected; completes.
CASE=c17; source /work/wt25b/tests/corpus/heldout25/gen_h25b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J colo-tab -N 2 -w lab25n1,lab25n2 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST started \$(date -u +%FT%TZ)"
srun --label nice -n 10 $V/python $T25 --master 127.0.0.1:29717 --style colo --steps 2400 --log-every 100 --eval-every 800 --eval-batches 150 --eval-sleep 0.12 --ckpt-dir ck --ckpt-every 1600
echo "srun exited \$? at \$(date -u +%FT%TZ)"
EOS
sbrun; sbdone colo-tab-$J.out
