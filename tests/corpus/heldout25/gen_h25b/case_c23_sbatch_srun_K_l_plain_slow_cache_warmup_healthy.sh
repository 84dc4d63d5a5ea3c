#!/bin/bash
# sbatch -N2, srun -K --label, plain print lines with wall-clock times; a 4000-batch cache warm-up (with a matmul per
# batch) before step 1, so the first step comes ~30 s after start-up, then evaluations every 700 steps; nothing
# injected; completes.
CASE=c23; source /work/wt25b/tests/corpus/heldout25/gen_h25b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J tab-train -N 2 -w lab25n3,lab25n4 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST started \$(date -u +%FT%TZ)"
srun -K --label nice -n 10 $V/python $T25 --master 127.0.0.1:29723 --style plain --steps 2100 --log-every 100 --warmup-prefetch 4000 --eval-every 700 --eval-batches 100 --eval-sleep 0.05 --ckpt-dir ck --ckpt-every 1050
echo "srun exited \$? at \$(date -u +%FT%TZ)"
EOS
sbrun; sbdone tab-train-$J.out
