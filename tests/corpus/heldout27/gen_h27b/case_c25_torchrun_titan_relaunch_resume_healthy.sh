#!/bin/bash
# torchrun 2 ranks, torchtitan-style; a first launch (not kept) is stopped with SIGTERM to torchrun after its step-1000
# checkpoint; the relaunch with --resume (kept) loads step 1000 and trains to 2400.
CASE=c25; PORT=38125; source /work/wt27b/tests/corpus/heldout27/gen_h27b/common.sh
(TR $T --style titan --steps 2400 --log-every 100 --ckpt-dir ck --ckpt-every 500 > first.log 2>&1 &)
waitfor "step:  1100" first.log 400; kill $(pgrep -f "rdzv-endpoint localhost:$PORT" | head -1); waitgone 100; sleep 3
TR $T --style titan --steps 2400 --log-every 100 --ckpt-dir ck --ckpt-every 500 --resume > out.log 2>&1
