#!/bin/bash
# sbatch -N2 --mem=900M (lab26n1,lab26n2) + srun --label, Python logging with module names; --eval-full-at 1200 builds
# activations for all 100k rows x 12 augmentations at once (~3.7 GB) inside the step's 900 MB memory cgroup: OOM killer.
CASE=c04; source /work/wt26b/tests/corpus/heldout26/gen_h26b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J tab-pylog -N 2 -w lab26n1,lab26n2 --ntasks-per-node=1 --mem=900M --no-requeue -o %x-%j.out
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST started \$(date -u +%FT%TZ)"
srun --label nice -n 10 $V/python $T26 --master 127.0.0.1:37004 --style pylog --steps 4000 --log-every 100 --eval-full-at 1200
echo "srun exited \$? at \$(date -u +%FT%TZ)"
EOS
sbrun; sbdone tab-pylog-$J.out
