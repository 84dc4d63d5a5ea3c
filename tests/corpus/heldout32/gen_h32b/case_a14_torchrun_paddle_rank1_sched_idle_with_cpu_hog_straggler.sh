#!/bin/bash
# torchrun 2 ranks, PaddleNLP-style; ranks pinned to CPU 0/1 (taskset) at step 300; after step 1500 rank 1 is moved to
# SCHED_IDLE (chrt --idle, all threads) and a CPU-bound process runs on CPU 1 until the end.
CASE=a14; PORT=43614; source /work/wt32b/tests/corpus/heldout32/gen_h32b/common.sh
(TR $T --style paddle --steps 4500 --log-every 100 --eval-every 1500 --ckpt-dir $RUN/checkpoints --ckpt-every 1500 > out.log 2>&1 &)
waitfor "global_step: 300," out.log 300; P0=$(rankpid RANK=0); P1=$(rankpid RANK=1); taskset -a -p -c 0 $P0 >/dev/null; taskset -a -p -c 1 $P1 >/dev/null
waitfor "global_step: 1500," out.log 300; chrt --idle -a -p 0 $P1; (cd $RUN; exec taskset -c 1 nice -n 10 $V/python -c "while True: pass") & HG=$!; log "idle $P1 hog $HG"
waitgone 500; kill $HG
