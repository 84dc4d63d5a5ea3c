#!/bin/bash
# STRAGGLER: sbatch job, srun -l 4 tasks on lab17n[1-4]; rank 0 prints a per-rank table (host, fwd_ms, data_ms) every
# 50 steps. After the step-200 table, the task on lab17n3 (SLURM_PROCID=2) is moved into a cgroup-v1 cpu group capped
# at 15% of one CPU (cfs_quota_us 15000 / cfs_period_us 100000), standing in for a throttled node, until the end.
# (A first try, SCHED_IDLE plus a pinned CPU hog, slowed every rank alike because of autogroup scheduling: not kept.)
CASE=srun_cpu_quota; source "$(dirname "$0")/common.sh"
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J lm-pretrain -N 4 -n 4 --mem=800M -o slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29617 OMP_NUM_THREADS=1
srun -l $V/python $G/t17.py --fmt table --steps 550 --log-every 50 --hidden 128
EOS
J=$(sbatch --parsable job.sh); echo "job $J" >&2
waitfor "step 200/" slurm-$J.out 300
P=$(envpids t17.py SLURM_PROCID=2); echo "pid $P" >&2
CG=/sys/fs/cgroup/cpu/lab17b_slow; mkdir -p $CG; echo 100000 > $CG/cpu.cfs_period_us; echo 15000 > $CG/cpu.cfs_quota_us
for t in /proc/$P/task/*; do echo ${t##*/} > $CG/tasks; done
while squeue -h -j $J | grep -q .; do sleep 2; done
cp slurm-$J.out out.log; rmdir $CG
