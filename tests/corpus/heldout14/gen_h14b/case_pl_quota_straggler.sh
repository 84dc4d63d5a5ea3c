#!/bin/bash
# STRAGGLER: Lightning DDP with per-rank step times (all_gather) in its log lines; after step 200 rank 1's
# process is moved into a cgroup-v1 cpu group limited to 15% of a CPU (cfs quota) for the rest of the run.
CASE=pl_quota_straggler; . "$(dirname "$0")/common.sh"
$TR $G/pl14.py --max-steps 900 --val-every 300 --ckpt-monitor val_loss --log-every 50 --step-timing > out.log 2>&1 &
waitfor "step=200 " out.log 120
CG=/sys/fs/cgroup/cpu/h14b_slow; mkdir -p $CG; echo 100000 > $CG/cpu.cfs_period_us; echo 15000 > $CG/cpu.cfs_quota_us
P=$(rankpid pl14.py 1); for t in /proc/$P/task/*; do echo ${t##*/} > $CG/tasks; done
wait; echo "rc=$?" > rc.txt
for t in $(cat $CG/tasks); do echo $t > /sys/fs/cgroup/cpu/tasks; done; rmdir $CG
