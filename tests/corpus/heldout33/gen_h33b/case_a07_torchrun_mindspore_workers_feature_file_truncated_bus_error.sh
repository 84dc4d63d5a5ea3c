#!/bin/bash
# torchrun 2 ranks, MindSpore-style, 2 persistent DataLoader workers per rank reading a memmap'ed private copy of the
# feature file: after epoch 2 the file is truncated to half its size (truncate -s) -> SIGBUS in the workers.
CASE=a07; PORT=44607; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh
cp /work/lab33b/data/feat.bin feat.bin
(TR $T --style mindspore --data $RUN/feat.bin --steps 3000 --epoch-steps 300 --log-every 100 --workers 2 --persistent --ckpt-dir ckpt --ckpt-every 600 > out.log 2>&1 &)
waitfor "epoch: 3 step: 100," out.log 300; truncate -s 5760000 feat.bin; log truncated
waitgone 300
