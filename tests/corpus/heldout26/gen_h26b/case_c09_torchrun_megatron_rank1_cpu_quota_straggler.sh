#!/bin/bash
# torchrun 2 ranks, Megatron-style; after iteration 1500 rank 1 alone is put in a cgroup-v1 cpu group with a 10% CFS quota
# until the run ends.
CASE=c09; PORT=37009; source /work/wt26b/tests/corpus/heldout26/gen_h26b/common.sh
(TR $T26 --style megatron --steps 2400 --log-every 100 > out.log 2>&1 &)
waitfor "iteration     1500/" out.log 300
P=$(envpids RANK=1); C=/sys/fs/cgroup/cpu/l26b_c09; mkdir -p $C; echo 100000 > $C/cpu.cfs_period_us; echo 10000 > $C/cpu.cfs_quota_us
for t in $(ls /proc/$P/task); do echo $t > $C/tasks; done; log "quota on $P"
for i in $(seq 1 300); do [ -z "$(envpids RANK=0)" ] && break; sleep 2; done; sleep 3
for t in $(cat $C/tasks); do echo $t > /sys/fs/cgroup/cpu/tasks; done; rmdir $C
