#!/bin/bash
# NODE: sbatch job, 2 nodes x 1 task, JAX processes (loguru lines) under srun with --mem=1000M per node; the script
# keeps a growing "debug" history of 3 MiB per step (--leak-mb 3) until the task's memory cgroup OOM-kills it.
CASE=sb_oom; source "$(dirname "$0")/common.sh"
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J jax-mlp-lm -N 2 --ntasks-per-node=1 --mem=1000M -o slurm-%j.out
export OMP_NUM_THREADS=1
srun $V/python $G/j19.py --coord 127.0.0.1:29732 --steps 5000 --log-every 25 --leak-mb 3 --ckpt-dir $RUN/ckpt --ckpt-every 100
EOS
J=$(sbatch --parsable job.sh); echo "job $J" >&2
sleep 10; while squeue -h -j $J | grep -q .; do sleep 2; done
cp slurm-$J.out out.log; scontrol show job $J | grep -E "JobState|Reason" >&2
