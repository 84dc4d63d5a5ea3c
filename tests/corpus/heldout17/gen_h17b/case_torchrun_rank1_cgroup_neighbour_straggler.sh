#!/bin/bash
# STRAGGLER: torchrun, 2 processes, per-rank table (fwd_ms, data_ms) every 25 steps, 300 steps. After the step-100 table,
# rank 1 (all its threads) and a CPU hog (sha256sum /dev/zero, at the rank's nice 10) are put into one cgroup-v1 cpu
# group capped at half a CPU (cfs quota 50000/100000): a noisy neighbour sharing a small CPU allotment with that rank
# for the rest of the run. (Fixes the accel noisy-neighbour case, where the rank got a whole CPU's share.)
CASE=torchrun_neighbour; source "$(dirname "$0")/common.sh"
$TR $G/t17.py --fmt table --steps 300 --log-every 25 --hidden 128 > out.log 2>&1 & L=$!
waitfor "step 100/" out.log 400; P=$(envpids "t17.py --fmt table --steps 300 --log-every 25" RANK=1); echo "pid $P" >&2
CG=/sys/fs/cgroup/cpu/lab17b_nb2; mkdir -p $CG; echo 100000 > $CG/cpu.cfs_period_us; echo 50000 > $CG/cpu.cfs_quota_us
for t in /proc/$P/task/*; do echo ${t##*/} > $CG/tasks; done
nice -n 10 sha256sum /dev/zero & H=$!; echo $H > $CG/tasks
wait $L; echo "exit=$?" >&2
kill $H; sleep 1; rmdir $CG
