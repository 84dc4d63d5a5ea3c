#!/bin/bash
# torchrun under 'ulimit -s 512' (KiB stack), Gluon/MXNet-style: at step 1300 rank 0 json-dumps a 60000-deep nested
# run config (recursion limit raised) -> C stack overflow -> SIGSEGV.
CASE=a06; PORT=44606; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh
(ulimit -s 512; TR $T --style gluon --steps 3000 --epoch-steps 500 --log-every 100 --eval-every 1 --ckpt-dir params --ckpt-every 500 --nested-at 1300 --nested-depth 60000 > out.log 2>&1 &)
sleep 5; waitgone 400
