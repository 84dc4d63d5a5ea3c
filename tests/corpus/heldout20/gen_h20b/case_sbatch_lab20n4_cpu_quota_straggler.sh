#!/bin/bash
# STRAGGLER: sbatch job, 2 nodes x 1 task, Python logging lines with the per-rank data+fwd figure; after step 300
# lab20n4's task is moved into a cgroup-v1 cpu group with a 20% quota (a throttled node) until the job ends.
CASE=sb_strag; source "$(dirname "$0")/common.sh"
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J lm-mlp -N 2 --ntasks-per-node=1 --mem=1500M -w lab20n[3-4] -o slurm-%j.out
export OMP_NUM_THREADS=1
srun $V/python $T20 --master 127.0.0.1:29624 --steps 900 --log-every 50 --ckpt-every 300 --ckpt-dir $RUN/ckpt
EOS
J=$(sbatch --parsable job.sh); echo "job $J" >&2
waitfor "step 300/" slurm-$J.out 600
T=$(for p in $(pgrep -f "t20.py"); do tr '\0' '\n' < /proc/$p/environ | grep -qx "SLURMD_NODENAME=lab20n4" && tr '\0' '\n' < /proc/$p/environ | grep -qx "SLURM_JOB_ID=$J" && echo $p; done)
CG=/sys/fs/cgroup/cpu/lab20b_throttle; mkdir -p $CG; echo 100000 > $CG/cpu.cfs_period_us; echo 20000 > $CG/cpu.cfs_quota_us
for t in $(ls /proc/$T/task); do echo $t > $CG/tasks; done; echo "throttled $T $(date +%T)" >&2
sbwait $J; rmdir $CG
