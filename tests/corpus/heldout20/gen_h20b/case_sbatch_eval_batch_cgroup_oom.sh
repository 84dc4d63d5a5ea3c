#!/bin/bash
# NODE: sbatch job, 2 nodes x 1 task, --mem=1200M per node; --eval-batch 40000 makes the first eval (step 200)
# allocate ~1.3 GB of logits per task and the task memory cgroups' OOM killer ends it. Python logging lines.
CASE=sb_oom; source "$(dirname "$0")/common.sh"
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J lm-mlp -N 2 --ntasks-per-node=1 --mem=1200M -o slurm-%j.out
export OMP_NUM_THREADS=1
srun $V/python $T20 --master 127.0.0.1:29622 --steps 3000 --log-every 50 --eval-every 200 --eval-batch 40000 --ckpt-every 100 --ckpt-dir $RUN/ckpt
EOS
J=$(sbatch --parsable job.sh); echo "job $J" >&2; sbwait $J
