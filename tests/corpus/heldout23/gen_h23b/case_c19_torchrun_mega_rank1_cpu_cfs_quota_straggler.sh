#!/bin/bash
# torchrun 2 ranks, Megatron-style; after iteration 800 rank 1 is moved into a cgroup-v1 cpu group with
# cpu.cfs_quota_us=15000 / cpu.cfs_period_us=100000 (15% of one CPU, a throttled rank) until the end.
CASE=c19; source /work/wt23b/tests/corpus/heldout23/gen_h23b/common.sh
$TR $T23 --fmt mega --steps 2000 --log-every 50 --ckpt-dir ck --ckpt-every 1000 --resume > out.log 2>&1 &
TRP=$!
waitfor "iteration      800/" out.log; P=$(envpids RANK=1); CG=/sys/fs/cgroup/cpu/l23b_c19; mkdir -p $CG
echo 100000 > $CG/cpu.cfs_period_us; echo 15000 > $CG/cpu.cfs_quota_us; echo $P > $CG/cgroup.procs; echo "quota $P $(date -u +%T)"
wait $TRP; echo "exit=$?"; sleep 1; rmdir $CG
