#!/bin/bash
# h11b_accelerate_rank_cpu_throttled: Accelerate loop on 2 CPU processes; 12 s in, rank 1's process is moved into a
# cgroup (v1 cpu controller) capped at 20% of one CPU (cfs_quota 20 ms / 100 ms), as a throttled node would be.
G=/work/wt11b/tests/corpus/heldout11/gen_h11b; V=/work/lab11b/venv/bin
D=/work/lab11b/runs/accthrottle; rm -rf $D; mkdir -p $D; cd $D
CG=/sys/fs/cgroup/cpu/h11b_throttle; mkdir -p $CG; echo 100000 > $CG/cpu.cfs_period_us; echo 20000 > $CG/cpu.cfs_quota_us
$V/torchrun --nproc-per-node 2 --master-port 29626 $G/accel_loop.py --steps 450 --save-every 150 --out $D/acc_out > out.log 2>&1 &
TR=$!
sleep 14
R1=$($G/rankpid.sh $TR 1); echo $R1 > $CG/cgroup.procs && echo "throttled rank1 $R1" >&2
wait $TR; echo "rc=$?" >&2
for p in $(cat $CG/cgroup.procs); do echo $p > /sys/fs/cgroup/cpu/cgroup.procs; done; rmdir $CG
