#!/bin/bash
# NODE: sbatch job with --mem=600M per node under task/cgroup (ConstrainRAMSpace=yes), srun -l 4 tasks on
# lab17n[1-4], nanoGPT-style log. The task on lab17n2 (rank 1) keeps 3 MiB more host memory every step (a growing
# in-process cache), so the kernel's cgroup OOM killer kills it mid-run.
CASE=srun_memcg_oom; source "$(dirname "$0")/common.sh"
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J gpt-small -N 4 -n 4 --mem=600M -o slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29619 OMP_NUM_THREADS=1
srun -l $V/python $G/t17.py --fmt nanogpt --steps 600 --log-every 10 --hidden 128 --leak-rank 1 --leak-mb 3
EOS
J=$(sbatch --parsable job.sh); echo "job $J" >&2
while squeue -h -j $J | grep -q .; do sleep 2; done
cp slurm-$J.out out.log; scontrol show job $J | grep -E "JobState|Reason" >&2
