#!/bin/bash
# torchrun 2 ranks, nanoGPT-style; FutureWarnings; rank 0's metrics uploader thread posts to 127.0.0.1:43690 where
# nothing listens (caught ConnectionRefusedError, retried with backoff); eval + checkpoints; nothing else injected.
CASE=a01; PORT=43601; source /work/wt32b/tests/corpus/heldout32/gen_h32b/common.sh
TR $T --style nanogpt --steps 4000 --log-every 50 --eval-every 500 --ckpt-dir out --ckpt-every 1000 --noisy --uploader 127.0.0.1:43690 > out.log 2>&1
