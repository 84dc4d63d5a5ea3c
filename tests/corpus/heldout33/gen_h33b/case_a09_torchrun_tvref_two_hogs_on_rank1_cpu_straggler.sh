#!/bin/bash
# torchrun 2 ranks (nice 10), torchvision-references-style, ranks pinned to CPU 0/1: from epoch 2 two CPU-bound
# processes at nice 0 pinned to CPU 1 (rank 1's) until the run ends -> sustained slowdown.
CASE=a09; PORT=44609; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh
(TR $T --style tvref --steps 3000 --epoch-steps 300 --log-every 50 --eval-every 1 --ckpt-dir out --ckpt-every 600 > out.log 2>&1 &)
waitfor "Start training" out.log 200; sleep 2; taskset -pc 0 $(rankpid RANK=0); taskset -pc 1 $(rankpid RANK=1)
waitfor "Epoch: \[2\]  \[  0" out.log 300
for i in 1 2; do (exec taskset -c 1 timeout 500 bash -c 'while :; do :; done') & done; log hogs
waitgone 500; kill $(jobs -p) 2>/dev/null
