#!/bin/bash
# torchrun under 'ulimit -v 4000000' (KiB, address space), axolotl-style: at step 1200 every rank builds a 3000 MiB
# in-memory index -> numpy MemoryError.
CASE=a05; PORT=44605; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh
(ulimit -v 4000000; TR $T --style axolotl --steps 3000 --epoch-steps 600 --log-every 50 --eval-every 1 --ckpt-dir outputs/out --ckpt-every 600 --cache-mb 3000 --cache-at 1200 > out.log 2>&1 &)
sleep 5; waitgone 400
