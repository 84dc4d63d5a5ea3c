#!/bin/bash
# CRASH (program): torch.multiprocessing.spawn of 2 ranks (t21.py --spawn 2) on one host (UTS hostname
# dgx-b07 via unshare), per-rank `[rank r/w host]` lines; each rank reads its own data partition
# (/work/lab21b/data/part{rank}) and sizes the vocabulary from the largest token id it finds (--vocab-from-data),
# so rank 0 builds an 8192-row embedding and rank 1 an 8000-row one; DDP's construction-time parameter shape check
# fails. Nothing is injected from outside.
CASE=spawn_vocab; source "$(dirname "$0")/common.sh"
unshare --uts bash -c "hostname dgx-b07; exec nice -n 10 $V/python $G/t21.py --spawn 2 --data-dir /work/lab21b/data/part{rank} \
  --vocab-from-data --fmt rank --steps 400 --log-every 20" > out.log 2>&1
echo "exit=$?" >&2
