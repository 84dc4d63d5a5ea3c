#!/bin/bash
# SCHEDULER: sbatch job, 2 nodes x 1 task, `srun -l` (task-labelled lines), plain print lines, --time=2 and no
# --signal: at the limit slurmstepd cancels the job (SIGTERM, then SIGKILL). Nothing is injected.
CASE=sb_tl; source "$(dirname "$0")/common.sh"
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J lm-mlp -N 2 --ntasks-per-node=1 --mem=1500M --time=2 -o slurm-%j.out
export OMP_NUM_THREADS=1
echo "[\$(date '+%F %T')] job \$SLURM_JOB_ID nodes \$SLURM_JOB_NODELIST"
srun -l $V/python $T20 --fmt plain --master 127.0.0.1:29621 --steps 5000 --log-every 50 --ckpt-every 250 --ckpt-dir $RUN/ckpt
EOS
J=$(sbatch --parsable job.sh); echo "job $J" >&2; sbwait $J
