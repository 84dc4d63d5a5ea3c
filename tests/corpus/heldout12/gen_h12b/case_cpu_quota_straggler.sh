#!/bin/bash
# DDP run, ranks pinned one per CPU; 25 s in, the RANK=1 worker is moved into a cgroup (v1 cpu
# controller) with a 25% CPU quota (cfs_quota_us=25000 / period 100000) for the rest of the run.
CASE=cpu_quota_straggler; . "$(dirname "$0")/common.sh"
CG=/sys/fs/cgroup/cpu/lab12b_slow; mkdir -p $CG; echo 100000 > $CG/cpu.cfs_period_us; echo 25000 > $CG/cpu.cfs_quota_us
$TITAN --parallel ddp --steps 900 --log-freq 25 --ckpt-interval 300 --ckpt-folder ckpt > out.log 2>&1 &
sleep 8; for r in 0 1; do p=$($G/rankpid.sh $r); taskset -a -p -c $r $p >/dev/null; done
sleep 17; P1=$($G/rankpid.sh 1); echo $P1 > $CG/cgroup.procs; for t in /proc/$P1/task/*; do echo ${t##*/} > $CG/tasks 2>/dev/null; done
wait; echo "done" > rc.txt
for p in $(cat $CG/cgroup.procs); do echo $p > /sys/fs/cgroup/cpu/cgroup.procs; done; rmdir $CG
