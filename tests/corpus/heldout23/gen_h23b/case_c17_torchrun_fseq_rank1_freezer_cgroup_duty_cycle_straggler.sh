#!/bin/bash
# torchrun 2 ranks, fairseq-style (no tee); after num_updates ~1000 rank 1 is moved into its own cgroup-v1 freezer
# group that is FROZEN 0.25 s / THAWED 0.15 s in a loop (a throttled rank): the job runs on, much slower.
CASE=c17; source /work/wt23b/tests/corpus/heldout23/gen_h23b/common.sh
$TR $T23 --fmt fseq --steps 2400 --epoch-steps 600 --log-every 50 --ckpt-dir ck --ckpt-every 600 --resume > out.log 2>&1 &
TRP=$!
waitfor "num_updates=1000," out.log; P=$(envpids RANK=1); FZ=/sys/fs/cgroup/freezer/l23b_c17; mkdir -p $FZ; echo $P > $FZ/cgroup.procs
echo "frozen-loop $P $(date -u +%T)"
( while kill -0 $P 2>/dev/null; do echo FROZEN > $FZ/freezer.state; sleep 0.25; echo THAWED > $FZ/freezer.state; sleep 0.15; done ) &
LP=$!
wait $TRP; echo "exit=$?"; kill $LP; echo THAWED > $FZ/freezer.state; sleep 1; rmdir $FZ
