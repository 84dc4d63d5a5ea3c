#!/bin/bash
# torchrun 2 ranks, Keras-like; after epoch 3 (step 600) rank 1 goes into a cgroup-v1 cpu group with a 10% CFS quota.
CASE=d10; PORT=39610; source /work/wt28b/tests/corpus/heldout28/gen_h28b/common.sh
(TR $T --style keras --steps 1800 --epoch-steps 150 --log-every 50 > out.log 2>&1 &)
waitfor "^Epoch 5/" out.log 400; P=$(rankpid RANK=1); C=/sys/fs/cgroup/cpu/l28b_d10; mkdir -p $C
echo 100000 > $C/cpu.cfs_period_us; echo 10000 > $C/cpu.cfs_quota_us; for t in $(ls /proc/$P/task); do echo $t > $C/tasks; done; log "quota $P"
waitgone 540; sleep 1; rmdir $C
