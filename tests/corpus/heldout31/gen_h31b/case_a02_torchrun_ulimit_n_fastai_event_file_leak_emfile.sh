#!/bin/bash
# torchrun 2 ranks under 'ulimit -n 64', fastai-style table; rank 0's metrics writer reopens an event file every 50 steps
# and never closes it (a descriptor leak) -> OSError: [Errno 24] Too many open files after ~50 reopenings.
CASE=a02; PORT=42602; source /work/wt31b/tests/corpus/heldout31/gen_h31b/common.sh
(ulimit -n 64; TR $T --style fastai --steps 8000 --epoch-steps 300 --log-every 50 --eval-every 1 --ckpt-dir models --ckpt-every 600 --leak-events > out.log 2>&1)
