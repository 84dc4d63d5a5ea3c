#!/bin/bash
# torchrun 2 ranks, PyTorch-Ignite-style logging, 2 persistent DataLoader workers per rank, FutureWarnings, validation
# each epoch and checkpoints every 1000 iterations; a healthy run.
CASE=a01; PORT=42601; source /work/wt31b/tests/corpus/heldout31/gen_h31b/common.sh
TR $T --style ignite --steps 5000 --log-every 100 --eval-every 1 --ckpt-dir $RUN/ckpt --ckpt-every 1000 --workers 2 --persistent --noisy > out.log 2>&1
