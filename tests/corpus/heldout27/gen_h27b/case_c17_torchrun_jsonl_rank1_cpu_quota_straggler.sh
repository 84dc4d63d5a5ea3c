#!/bin/bash
# torchrun 2 ranks, JSON lines from both ranks; after step 800 rank 1 alone goes into a cgroup-v1 cpu group with a 12%
# CFS quota until the run ends.
CASE=c17; PORT=38117; source /work/wt27b/tests/corpus/heldout27/gen_h27b/common.sh
(TR $T --style jsonl --steps 1500 --log-every 50 > out.log 2>&1 &)
waitfor '"step": 800,' out.log 400
P=$(envpids RANK=1); C=/sys/fs/cgroup/cpu/l27b_c17; mkdir -p $C; echo 100000 > $C/cpu.cfs_period_us; echo 12000 > $C/cpu.cfs_quota_us
for t in $(ls /proc/$P/task); do echo $t > $C/tasks; done; log "quota on $P"
waitgone 600; sleep 2; for t in $(cat $C/tasks); do echo $t > /sys/fs/cgroup/cpu/tasks; done; rmdir $C
