#!/bin/bash
# torchrun 2 ranks, DGL-dist-style (every rank prints 'Part r | ... Speed (samples/sec)'): after epoch 2 rank 1 moved
# into a cgroup-v1 cpu group with cfs_quota 15 ms per 100 ms -> a sustained slowdown to the end.
CASE=a08; PORT=44608; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh
(TR $T --style dgl --steps 3600 --epoch-steps 400 --log-every 100 --eval-every 1 --ckpt-dir ckpt --ckpt-every 800 > out.log 2>&1 &)
waitfor "Part 0, Epoch Time" out.log 300; waitfor "Epoch 00002 | Step 00100" out.log 300
C=/sys/fs/cgroup/cpu/lab33b_a08; mkdir -p $C; echo 100000 > $C/cpu.cfs_period_us; echo 15000 > $C/cpu.cfs_quota_us
P1=$(rankpid RANK=1); for t in $(ls /proc/$P1/task); do echo $t > $C/tasks; done; log "quota $P1"
waitgone 560; rmdir $C
