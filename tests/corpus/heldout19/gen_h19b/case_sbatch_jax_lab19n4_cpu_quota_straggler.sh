#!/bin/bash
# STRAGGLER: sbatch job, 2 nodes x 1 task on lab19n[3-4] (-w), JAX processes (structlog JSON lines). After the step-600 record, the task on
# lab19n4 is moved into a cgroup-v1 cpu group capped at 20% of one CPU (cfs_quota_us 20000 / period 100000),
# standing in for a throttled node, until the end.
CASE=sb_quota; source "$(dirname "$0")/common.sh"
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J jax-mlp-lm -N 2 -w lab19n[3-4] --ntasks-per-node=1 --mem=1500M -o slurm-%j.out
export OMP_NUM_THREADS=1
srun $V/python $G/j19.py --fmt json --coord 127.0.0.1:29736 --steps 1400 --log-every 100 --ckpt-dir $RUN/ckpt --ckpt-every 500
EOS
J=$(sbatch --parsable job.sh); echo "job $J" >&2
waitfor '"step": 600, "loss"' slurm-$J.out 600
T=$(for p in $(pgrep -f "29736"); do tr '\0' '\n' < /proc/$p/environ 2>/dev/null | grep -qx SLURMD_NODENAME=lab19n4 && echo $p; done)
echo "task $T $(date +%T)" >&2
CG=/sys/fs/cgroup/cpu/lab19b_slow2; mkdir -p $CG; echo 100000 > $CG/cpu.cfs_period_us; echo 20000 > $CG/cpu.cfs_quota_us
for t in /proc/$T/task/*; do echo ${t##*/} > $CG/tasks; done
sleep 10; while squeue -h -j $J | grep -q .; do sleep 2; done
cp slurm-$J.out out.log; scontrol show job $J | grep -E "JobState|Reason" >&2; rmdir $CG
