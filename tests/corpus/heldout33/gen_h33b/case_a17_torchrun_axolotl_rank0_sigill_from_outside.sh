#!/bin/bash
# torchrun 2 ranks, axolotl-style (faulthandler enabled): rank 0 sent SIGILL from outside at step 1800.
CASE=a17; PORT=44617; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh
(TR $T --style axolotl --steps 4000 --epoch-steps 800 --log-every 50 --eval-every 1 --ckpt-dir outputs/out --ckpt-every 800 > out.log 2>&1 &)
waitfor "'epoch': 2.25}" out.log 300; kill -ILL $(rankpid RANK=0); log ill
waitgone 200
