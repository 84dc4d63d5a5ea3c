#!/bin/bash
# NODE: the dataset keeps a growing cache (0.25 MB per sample) in each DataLoader worker; after step 100 rank 1's worker is
# moved into a memory cgroup (v1) limited to 120 MB, whose OOM killer then kills it (SIGKILL). torchrun, timm-style lines.
CASE=worker_oom_cgroup; source "$(dirname "$0")/common.sh"
CG=/sys/fs/cgroup/memory/h15b_oom; mkdir -p $CG; echo $((120*1024*1024)) > $CG/memory.limit_in_bytes
$TR $G/t15.py --data $DATA --fmt timm --hidden 192 --steps 600 --log-every 10 --leak-mb 0.25 > out.log 2>&1 &
waitfor "\[ 100/600" out.log 150 && P=$(rankpid t15.py 1) && for w in $(workerpids $P); do echo $w > $CG/cgroup.procs; done
wait %1
echo "exit=$?" >&2
sleep 1; rmdir $CG
