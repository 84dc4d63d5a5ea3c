#!/bin/bash
# DDP run with one DataLoader worker per rank reading a numpy-made token file; 20 s in, rank 1's
# DataLoader worker process is moved into a cgroup (v1 cpu controller) limited to 2% of a CPU
# (cfs_quota_us=2000 / period 100000), as a starved input pipeline on one node would be.
CASE=dl_worker_quota_straggler; . "$(dirname "$0")/common.sh"
$V/python -c "import numpy as np; np.random.seed(1); np.random.randint(0,1024,size=4_000_000,dtype=np.uint16).tofile('tokens.bin')"
CG=/sys/fs/cgroup/cpu/lab12b_dl; mkdir -p $CG; echo 100000 > $CG/cpu.cfs_period_us; echo 2000 > $CG/cpu.cfs_quota_us
$TITAN --parallel ddp --data tokens.bin --num-workers 1 --steps 700 --log-freq 25 > out.log 2>&1 &
sleep 20; P1=$($G/rankpid.sh 1); W=$(pgrep -P $P1 | head -1)
echo "$P1 $W" > pids.txt; echo $W > $CG/cgroup.procs
wait; echo "done" > rc.txt
for p in $(cat $CG/cgroup.procs); do echo $p > /sys/fs/cgroup/cpu/cgroup.procs; done; rmdir $CG
