#!/bin/bash
# torchrun 2 ranks, Megatron-style; a first run (first.log, not kept) trains 1000 iterations saving every 500; the
# iteration-1000 checkpoint is then truncated to half its size (as a save cut off mid-write would leave it) and the
# relaunch with --resume (kept: out.log) loads it.
CASE=c12; PORT=37012; source /work/wt26b/tests/corpus/heldout26/gen_h26b/common.sh
TR $T26 --style megatron --steps 1000 --log-every 100 --ckpt-dir ck --ckpt-every 500 > first.log 2>&1
truncate -s $(( $(stat -c %s ck/checkpoint_1000.pt) / 2 )) ck/checkpoint_1000.pt; log truncated
TR $T26 --style megatron --steps 3000 --log-every 100 --ckpt-dir ck --ckpt-every 500 --resume > out.log 2>&1
