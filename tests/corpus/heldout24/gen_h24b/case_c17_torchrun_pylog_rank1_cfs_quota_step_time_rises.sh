#!/bin/bash
# torchrun 2 ranks, Python-logging style; after step ~700 rank 1 alone is moved into a cgroup-v1 cpu group with
# cpu.cfs_quota_us=12000 per 100000 (0.12 CPU) until the end: every step waits for rank 1.
CASE=c17; source /work/wt24b/tests/corpus/heldout24/gen_h24b/common.sh
$TR $T24 --fmt pylog --steps 1800 --log-every 100 --ckpt-dir ck --ckpt-every 600 > out.log 2>&1 &
TRP=$!
waitfor "step 700/" out.log; P=$(envpids RANK=1); CG=/sys/fs/cgroup/cpu/l24b_c17; mkdir -p $CG
echo 100000 > $CG/cpu.cfs_period_us; echo 12000 > $CG/cpu.cfs_quota_us; echo $P > $CG/cgroup.procs; echo "quota $P $(date -u +%T)"
wait $TRP; echo "exit=$?"; sleep 1; rmdir $CG
