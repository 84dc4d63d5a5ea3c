#!/bin/bash
# torchrun 2 ranks, GPT-NeoX-style: rank 1 SIGKILLed from outside after iteration 1500.
CASE=a10; PORT=44610; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh
(TR $T --style neox --steps 4000 --epoch-steps 500 --log-every 100 --eval-every 1 --ckpt-dir checkpoints --ckpt-every 1000 > out.log 2>&1 &)
waitfor "iteration     1500/" out.log 300; kill -KILL $(rankpid RANK=1); log kill
waitgone 200
