#!/bin/bash
# torchrun 2 ranks, MaxText-style absl logging, features memmap'ed from a private copy of feat.bin; after step 1500
# 6 MiB of the file (from offset 2 MiB) are overwritten in place with random bytes (dd conv=notrunc).
CASE=a07; PORT=43607; source /work/wt32b/tests/corpus/heldout32/gen_h32b/common.sh
cp /work/lab32b/data/feat.bin $RUN/feat.bin
(TR $T --style maxtext --data $RUN/feat.bin --steps 5000 --log-every 100 --eval-every 1000 --ckpt-dir $RUN/mlp48 --ckpt-every 1000 > out.log 2>&1 &)
waitfor "completed step: 1500," out.log 300; dd if=/dev/urandom of=$RUN/feat.bin bs=1M seek=2 count=6 conv=notrunc; log corrupted
waitgone 300
