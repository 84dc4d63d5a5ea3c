#!/bin/bash
# FSDP2 run with the default process-group timeout (30 min). 25 s in, the RANK=1 worker is put in
# a cgroup (v1 freezer) and frozen, as a rank stuck in the kernel would be; no signal reaches it.
# After 90 s of silence torchrun's process group and both workers (torchrun starts them in their
# own sessions) are SIGKILLed (the job cancelled), then the cgroup is thawed.
CASE=freezer_silent_hang; . "$(dirname "$0")/common.sh"
CG=/sys/fs/cgroup/freezer/lab12b_frz; mkdir -p $CG
setsid $TITAN --steps 3000 --log-freq 10 --ckpt-interval 100 --ckpt-folder ckpt > out.log 2>&1 &
sleep 1; PG=$(ps -o pgid= -p $! | tr -d ' ')
sleep 24; P0=$($G/rankpid.sh 0); P1=$($G/rankpid.sh 1); echo "$P0 $P1" > pids.txt; echo $P1 > $CG/cgroup.procs; echo FROZEN > $CG/freezer.state
date -u +%T.%N > frozen_at.txt
sleep 90; date -u +%T.%N > killed_at.txt; kill -KILL -- -$PG; kill -KILL $P0 $P1; echo THAWED > $CG/freezer.state
wait; sleep 1; rmdir $CG; echo "pgid=$PG" > rc.txt
