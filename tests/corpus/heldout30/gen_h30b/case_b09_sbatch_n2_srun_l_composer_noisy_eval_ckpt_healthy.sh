#!/bin/bash
# sbatch -N2 + srun --label, Composer-style, FutureWarnings, retried tracker uploads, evaluation and checkpoints.
CASE=b09; source /work/wt30b/tests/corpus/heldout30/gen_h30b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J comp-ok -N 2 --ntasks-per-node=1 --mem=1200M --no-requeue -o %x-%j.out
echo "[\$(date -u +%FT%TZ)] job \$SLURM_JOB_ID nodes \$SLURM_JOB_NODELIST"
srun --label nice -n 10 $V/python $T --master 127.0.0.1:41649 --style composer --steps 2000 --log-every 100 --ckpt-dir ck --ckpt-every 500 --eval-every 500 --noisy --tracker-flaky
echo "[\$(date -u +%FT%TZ)] srun exited \$?"
EOS
sbrun; sbdone comp-ok-$J.out
