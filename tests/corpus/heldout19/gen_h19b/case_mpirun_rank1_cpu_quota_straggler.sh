#!/bin/bash
# STRAGGLER: mpirun, 2 ranks of m19.py. After epoch 5's line (batch 512, hidden 2048), rank 1 is moved into a cgroup-v1 cpu group capped at
# 15% of one CPU (cfs_quota_us 15000 / period 100000), standing in for a throttled host, until the end.
CASE=mpi_quota; source "$(dirname "$0")/common.sh"
$MPI $M19 --epochs 14 --batch 512 --hidden 2048 --ckpt-dir ckpt > out.log 2>&1 &
waitfor "Epoch 6/14" out.log
P=$(envpids m19.py OMPI_COMM_WORLD_RANK=1); echo "pid $P" >&2
CG=/sys/fs/cgroup/cpu/lab19b_slow; mkdir -p $CG; echo 100000 > $CG/cpu.cfs_period_us; echo 15000 > $CG/cpu.cfs_quota_us
for t in /proc/$P/task/*; do echo ${t##*/} > $CG/tasks; done
wait; echo "exit=$?" >&2
for t in $(cat $CG/tasks); do echo $t > /sys/fs/cgroup/cpu/tasks; done; rmdir $CG
