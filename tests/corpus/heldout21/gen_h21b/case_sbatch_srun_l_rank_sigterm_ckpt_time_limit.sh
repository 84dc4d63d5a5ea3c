#!/bin/bash
# CRASH (scheduler): sbatch job with --time=2, 2 nodes x 1 task, `srun -l` of t21.py per-rank lines with
# --sigterm-save (SIGTERM is caught, the ranks agree on it at the next step, rank 0 saves a checkpoint and all
# exit 0). The 2-minute limit is real: Slurm signals the job at the limit.
CASE=sb_term; source "$(dirname "$0")/common.sh"
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J tokmlp-tl -N 2 --ntasks-per-node=1 --mem=1500M --time=2 -w lab21n[1-2] -o slurm-%j.out
export OMP_NUM_THREADS=1
srun -l nice -n 10 $V/python $T21 --fmt rank --master 127.0.0.1:29716 --steps 3000 --log-every 25 --sigterm-save \
  --ckpt-every 200 --ckpt-dir $RUN/ckpt
echo "srun exit code \$?"
EOS
J=$(sbatch --parsable job.sh); echo "job $J" >&2
sbwait $J
