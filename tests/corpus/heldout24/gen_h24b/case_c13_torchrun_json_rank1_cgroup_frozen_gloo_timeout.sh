#!/bin/bash
# torchrun 2 ranks, JSON metric lines, --pg-timeout 60; after step ~1000 rank 1 is put in a cgroup-v1 freezer group
# set FROZEN (never thawed until the end): rank 0's next collective times out.
CASE=c13; source /work/wt24b/tests/corpus/heldout24/gen_h24b/common.sh
$TR $T24 --fmt json --steps 3000 --log-every 50 --eval-every 500 --pg-timeout 60 --ckpt-dir ck --ckpt-every 500 > out.log 2>&1 &
TRP=$!
waitfor '"step": 1000,' out.log; P=$(envpids RANK=1); CG=/sys/fs/cgroup/freezer/l24b_c13; mkdir -p $CG
echo $P > $CG/cgroup.procs; echo FROZEN > $CG/freezer.state; echo "frozen $P $(date -u +%T)"
for i in $(seq 1 150); do kill -0 $TRP 2>/dev/null || break; sleep 1; done
cp out.log kept.log; echo "copied $(date -u +%T)"; echo THAWED > $CG/freezer.state; kill $TRP 2>/dev/null; wait; sleep 2; rmdir $CG
