#!/bin/bash
# STRAGGLER (whole job): srun directly (no batch script), 2 nodes x 1 task, per-rank `[rank r/w host]` lines with
# ms/it and tok/s; after step 250 both tasks are moved into one cgroup-v1 cpu group with a 30% quota (a job-wide
# slowdown, every rank alike) until the end.
CASE=srun_quota; source "$(dirname "$0")/common.sh"
srun -N 2 --ntasks-per-node=1 --mem=1500M -w lab21n[3-4] -J tokmlp-q nice -n 10 $V/python $T21 --fmt rank \
  --master 127.0.0.1:29715 --steps 650 --log-every 25 --ckpt-every 250 --ckpt-dir $RUN/ckpt > out.log 2>&1 &
waitfor "rank 0/2 lab21n3\] INFO  step 250/" out.log 400
CG=/sys/fs/cgroup/cpu/lab21b_q; mkdir -p $CG; echo 100000 > $CG/cpu.cfs_period_us; echo 30000 > $CG/cpu.cfs_quota_us
for p in $(envpids t21.py SLURM_STEP_NUM_TASKS=2); do grep -q "SLURMD_NODENAME=lab21n" /proc/$p/environ || continue
  [ "$(ps -o comm= $p)" = srun ] && continue; for t in $(ls /proc/$p/task); do echo $t > $CG/tasks; done; echo "quota on $p" >&2; done
echo "throttled $(date +%T)" >&2
wait; echo "exit=$? $(date +%T)" >&2
for t in $(cat $CG/tasks); do echo $t > /sys/fs/cgroup/cpu/tasks; done; rmdir $CG
