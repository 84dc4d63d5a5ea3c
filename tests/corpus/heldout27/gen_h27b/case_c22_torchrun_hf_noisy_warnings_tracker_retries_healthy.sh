#!/bin/bash
# torchrun 2 ranks, HF Trainer-style; FutureWarnings, a DataLoader worker-count UserWarning, and wandb-like upload
# warnings that succeed on retry; checkpoints every 500; nothing injected.
CASE=c22; PORT=38122; source /work/wt27b/tests/corpus/heldout27/gen_h27b/common.sh
TR $T --style hf --steps 2000 --log-every 100 --noisy --tracker-flaky --ckpt-dir ck --ckpt-every 500 --eval-every 1000 > out.log 2>&1
