#!/bin/bash
# a09 redone: torchrun 2 ranks (nice 10), torchvision-references-style; every thread of rank 0 pinned to CPU 0 and of
# rank 1 to CPU 1 (taskset -a); from epoch 2 three CPU-bound processes at the same nice (10) pinned to CPU 1 until the
# run ends.
CASE=a09b; PORT=44629; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh
(TR $T --style tvref --steps 2400 --epoch-steps 300 --log-every 50 --eval-every 1 --ckpt-dir out --ckpt-every 600 > out.log 2>&1 &)
waitfor "Epoch: \[0\]  \[ 49" out.log 200; taskset -apc 0 $(rankpid RANK=0); taskset -apc 1 $(rankpid RANK=1)
waitfor "Epoch: \[2\]  \[  0" out.log 300
for i in 1 2 3; do (exec nice -n 10 taskset -c 1 timeout 400 bash -c 'while :; do :; done') & done; log hogs
waitgone 500; kill $(jobs -p) 2>/dev/null; true
