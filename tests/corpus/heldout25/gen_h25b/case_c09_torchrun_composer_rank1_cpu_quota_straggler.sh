#!/bin/bash
# torchrun 2 ranks, Composer-style; at batch ~700 rank 1 alone is moved into a cgroup-v1 cpu group with a 10% CFS quota
# (a throttled core), kept until the run ends.
CASE=c09; source /work/wt25b/tests/corpus/heldout25/gen_h25b/common.sh
($TR $T25 --style composer --steps 1400 --log-every 50 > out.log 2>&1 &)
waitfor "batch=700/" out.log 300
P=$(envpids RANK=1); CG=/sys/fs/cgroup/cpu/l25b_c09; mkdir -p $CG
echo 100000 > $CG/cpu.cfs_period_us; echo 10000 > $CG/cpu.cfs_quota_us; echo $P > $CG/cgroup.procs; echo "quota $P $(date -u +%T)"
for i in $(seq 1 200); do [ -z "$(envpids RANK=0)" ] && break; sleep 2; done; sleep 3; rmdir $CG
