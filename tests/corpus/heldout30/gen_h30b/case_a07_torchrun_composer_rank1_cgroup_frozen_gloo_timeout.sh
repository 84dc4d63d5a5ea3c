#!/bin/bash
# torchrun 2 ranks, Composer-style, --pg-timeout 60; after batch 700 rank 1 is put in a cgroup-v1 freezer group and
# FROZEN (left frozen until rank 0 has timed out, then thawed).
CASE=a07; PORT=41607; source /work/wt30b/tests/corpus/heldout30/gen_h30b/common.sh
(TR $T --style composer --steps 3000 --log-every 100 --pg-timeout 60 > out.log 2>&1 &)
waitfor "batch=700/" out.log 300; P=$(rankpid RANK=1); C=/sys/fs/cgroup/freezer/l30b_a07; mkdir -p $C
for t in $(ls /proc/$P/task); do echo $t > $C/tasks; done; echo FROZEN > $C/freezer.state; log "frozen $P"
waitfor "Timed out\|timeout\|Timeout" out.log 150; sleep 20; echo THAWED > $C/freezer.state; log thawed; waitgone 120; sleep 2
for p in $(agentpids); do kill $p; done; sleep 2; rmdir $C
