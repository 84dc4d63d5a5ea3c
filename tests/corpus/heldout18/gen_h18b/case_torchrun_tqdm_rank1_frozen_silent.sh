#!/bin/bash
# HANG (silent): torchrun, 2 processes, DDP on gloo (default 30 min process-group timeout), rank 0 shows a tqdm bar
# (loss, tok/s postfix; stderr). After the bar passes 400 steps, rank 1 is put into a frozen cgroup-v1 freezer group
# (freezer.state=FROZEN), as a task stuck in uninterruptible sleep would be; rank 0 then waits in its next collective.
# The log is copied after it has been silent (unchanged) for 180 s; then the rank is thawed and the run killed.
CASE=tqdm_frozen; source "$(dirname "$0")/common.sh"
$TR $G/t18.py --fmt tqdm --steps 1500 --log-every 10 > out.log 2>&1 & L=$!
for i in $(seq 1 400); do grep -q "| 4[0-9][0-9]/1500" out.log && break; sleep 1; done
P=$(envpids "t18.py --fmt tqdm" RANK=1); echo "rank1 $P" >&2
FZ=/sys/fs/cgroup/freezer/lab18b_frozen; mkdir -p $FZ; for t in /proc/$P/task/*; do echo ${t##*/} > $FZ/tasks; done
echo FROZEN > $FZ/freezer.state; date -u +"frozen at %T" >&2
s=$(stat -c %s out.log); q=0; while [ $q -lt 180 ]; do sleep 5; n=$(stat -c %s out.log); if [ $n = $s ]; then q=$((q+5)); else q=0; s=$n; fi; done
date -u +"copied at %T (silent 180 s)" >&2; cp out.log kept.log
echo THAWED > $FZ/freezer.state; kill -- -$L 2>/dev/null; pkill -P $L 2>/dev/null; for p in $(pgrep -f "t18.py --fmt tqdm"); do kill $p; done
sleep 2; rmdir $FZ
