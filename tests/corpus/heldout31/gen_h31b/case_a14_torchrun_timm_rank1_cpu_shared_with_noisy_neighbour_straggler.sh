#!/bin/bash
# torchrun 2 ranks, timm train.py style; rank 0 pinned to CPU 0 and rank 1 to CPU 1 (taskset) from the start of epoch 1;
# from epoch 4 a CPU-bound process (same nice level) is pinned to CPU 1 until the run ends, so rank 1 gets ~half a CPU.
CASE=a14; PORT=42614; source /work/wt31b/tests/corpus/heldout31/gen_h31b/common.sh
(TR $T --style timm --steps 3744 --log-every 52 --eval-every 1 --ckpt-dir $RUN/output/train/20261125-mlp48 --ckpt-every 1248 > out.log 2>&1 &)
waitfor "Train: 0 \[  52/" out.log 300; P0=$(rankpid RANK=0); P1=$(rankpid RANK=1); taskset -a -p -c 0 $P0 >/dev/null; taskset -a -p -c 1 $P1 >/dev/null; log "pinned $P0 $P1"
waitfor "Train: 4 \[  52/" out.log 400; (cd $RUN; exec taskset -c 1 nice -n 10 $V/python -c "while True: pass") & H=$!; log "hog $H"
waitgone 500; kill $H
