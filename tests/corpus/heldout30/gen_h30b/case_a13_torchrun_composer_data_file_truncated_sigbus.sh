#!/bin/bash
# torchrun 2 ranks, Composer-style; the memmap'ed feature file (a copy on a loop fs) is truncated to 0 after batch 700
# -> both ranks die of SIGBUS when they next touch an unmapped page.
CASE=a13; PORT=41613; source /work/wt30b/tests/corpus/heldout30/gen_h30b/common.sh
M=$(mkloop a13 24); cp /work/lab30b/data/feat.bin $M/feat.bin
(TR $T --style composer --steps 3000 --log-every 100 --data $M/feat.bin --ckpt-dir ck --ckpt-every 500 > out.log 2>&1 &)
waitfor "batch=700/" out.log 300; truncate -s 0 $M/feat.bin; log truncated; waitgone 120; sleep 2; rmloop a13
