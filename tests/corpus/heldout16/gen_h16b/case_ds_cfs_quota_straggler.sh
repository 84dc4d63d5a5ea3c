#!/bin/bash
# STRAGGLER: DeepSpeed ZeRO-1 on the CPU accelerator, launched with the `deepspeed` launcher (2 local processes);
# DeepSpeed's own throughput lines every 25 steps. After the global_step=150 line, rank 1 (all its threads) is moved
# into a cgroup-v1 cpu group capped at 25% of one CPU (cpu.cfs_quota_us=25000 per 100000) for the rest of the run.
CASE=ds_cfs_quota; source "$(dirname "$0")/common.sh"
export DS_ACCELERATOR=cpu
nice -n 10 $V/deepspeed --num_gpus 2 $G/ds16.py --steps 400 --print-every 25 > out.log 2>&1 & L=$!
waitfor "global_step=150," out.log 200
P1=$(rankpid ds16.py 1)
CG=/sys/fs/cgroup/cpu/lab16b_rank1; mkdir -p $CG; echo 100000 > $CG/cpu.cfs_period_us; echo 25000 > $CG/cpu.cfs_quota_us
for t in /proc/$P1/task/*; do echo ${t##*/} > $CG/tasks; done
wait $L; echo "exit=$?" >&2
for t in $(cat $CG/tasks); do echo $t > /sys/fs/cgroup/cpu/tasks; done; rmdir $CG
