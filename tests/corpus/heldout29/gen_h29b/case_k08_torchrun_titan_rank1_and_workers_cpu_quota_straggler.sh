#!/bin/bash
# torchrun 2 ranks, torchtitan-like, DataLoader num_workers=1; after step 600 rank 1 and its worker go into a cgroup-v1
# cpu group with an 8% CFS quota, until the run ends.
CASE=k08; PORT=40608; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh
(TR $T --style titan --steps 1500 --log-every 50 --workers 1 > out.log 2>&1 &)
waitfor "step:   600" out.log 300; C=/sys/fs/cgroup/cpu/l29b_k08; mkdir -p $C; echo 100000 > $C/cpu.cfs_period_us; echo 8000 > $C/cpu.cfs_quota_us
for p in $(envpids RANK=1); do for t in $(ls /proc/$p/task); do echo $t > $C/tasks; done; done; log quota
waitgone 540; sleep 1; rmdir $C
