#!/bin/bash
# (a14 redone: SCHED_IDLE for rank 1 slowed it too little to show) torchrun 2 ranks, PaddleNLP-style; ranks pinned to CPU
# 0/1 (taskset) at step 300; after step 1200 rank 1 is moved into a cgroup-v1 cpu group with cpu.shares=32 and a CPU-bound
# process pinned to CPU 1 runs in a group with cpu.shares=1024 until the end.
CASE=a14b; PORT=43620; source /work/wt32b/tests/corpus/heldout32/gen_h32b/common.sh
CG=/sys/fs/cgroup/cpu/lab32b_a14b; mkdir -p $CG/low $CG/hog; echo 32 > $CG/low/cpu.shares; echo 1024 > $CG/hog/cpu.shares
(TR $T --style paddle --steps 2400 --log-every 100 --eval-every 1200 --ckpt-dir $RUN/checkpoints --ckpt-every 1200 > out.log 2>&1 &)
waitfor "global_step: 300," out.log 300; P0=$(rankpid RANK=0); P1=$(rankpid RANK=1); taskset -a -p -c 0 $P0 >/dev/null; taskset -a -p -c 1 $P1 >/dev/null
waitfor "global_step: 1200," out.log 300; echo $P1 > $CG/low/cgroup.procs; (echo $BASHPID > $CG/hog/cgroup.procs; cd $RUN; exec taskset -c 1 $V/python -c "while True: pass") & HG=$!; log "low $P1 hog $HG"
waitgone 500; kill $HG; sleep 1; rmdir $CG/low $CG/hog $CG
