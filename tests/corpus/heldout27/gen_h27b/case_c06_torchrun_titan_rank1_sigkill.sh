#!/bin/bash
# torchrun 2 ranks, torchtitan-style logging; rank 1 is SIGKILLed after step 1000 (no message of its own).
CASE=c06; PORT=38106; source /work/wt27b/tests/corpus/heldout27/gen_h27b/common.sh
(TR $T --style titan --steps 2400 --log-every 50 --ckpt-dir ck --ckpt-every 500 > out.log 2>&1 &)
waitfor "step:  1000" out.log 400; kill -KILL $(envpids RANK=1); log killed; waitgone 200
