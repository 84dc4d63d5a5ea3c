#!/bin/bash
# CRASH (memory): sbatch job, 2 nodes x 1 task, --mem=1500M per node, srun of t21.py with per-rank `[rank r/w host]`
# lines, 2 DataLoader workers per rank whose dataset caches every decoded sample with a 1024-float feature row per
# token (--cache-samples): the workers grow ~2 MB per step each until the job's memory cgroup OOM-kills one.
# Nothing is injected from outside: the memory limit and the growth are real.
CASE=sb_dl_oom; source "$(dirname "$0")/common.sh"
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J tokmlp-cache -N 2 --ntasks-per-node=1 --mem=1500M -w lab21n[1-2] -o slurm-%j.out
export OMP_NUM_THREADS=1
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST started \$(date)"
srun nice -n 10 $V/python $T21 --fmt rank --master 127.0.0.1:29711 --steps 1500 --samples-per-epoch 64000 --log-every 20 \
  --workers 2 --cache-samples --cache-feat 1024 --ckpt-every 100 --ckpt-dir $RUN/ckpt
echo "srun exit \$? at \$(date)"
EOS
J=$(sbatch --parsable job.sh); echo "job $J" >&2
sbwait $J
