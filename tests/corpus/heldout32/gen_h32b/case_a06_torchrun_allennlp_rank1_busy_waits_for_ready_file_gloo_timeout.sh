#!/bin/bash
# torchrun 2 ranks, AllenNLP-style, --pg-timeout 60; at step 1400 rank 1 busy-waits (no sleep, no output) for a
# prefetcher's ready-file that never appears; rank 0 waits in allreduce.
CASE=a06; PORT=43606; source /work/wt32b/tests/corpus/heldout32/gen_h32b/common.sh
TR $T --style allennlp --steps 5000 --epoch-steps 300 --log-every 50 --eval-every 1 --ckpt-dir serialization --ckpt-every 600 --spin-at 1400 --pg-timeout 60 > out.log 2>&1
