#!/bin/bash
# torchrun 2 ranks, plain print lines; at step ~550 both ranks are moved into one cgroup-v1 cpu group with a 15% CFS
# quota (the whole job throttled), kept until the run ends.
CASE=c10; source /work/wt25b/tests/corpus/heldout25/gen_h25b/common.sh
($TR $T25 --style plain --steps 900 --log-every 50 > out.log 2>&1 &)
waitfor "step=550/" out.log 300
CG=/sys/fs/cgroup/cpu/l25b_c10; mkdir -p $CG; echo 100000 > $CG/cpu.cfs_period_us; echo 15000 > $CG/cpu.cfs_quota_us
for P in $(envpids RANK=0) $(envpids RANK=1); do echo $P > $CG/cgroup.procs; done; echo "quota $(date -u +%T)"
for i in $(seq 1 200); do [ -z "$(envpids RANK=0)" ] && break; sleep 2; done; sleep 3; rmdir $CG
