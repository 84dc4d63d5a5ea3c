#!/bin/bash
# NONE: torchrun, 2 processes, Lightning Trainer (cpu, ddp, devices=2, no progress bar, no logger), 200 steps,
# ModelCheckpoint every 100 steps. The dataset's optional cache files do not exist: each rank logs the FileNotFoundError
# once per shard and builds samples on the fly. Lightning's own warnings are left as they come. No fault injected.
CASE=pl_cache_miss; source "$(dirname "$0")/common.sh"
$TR $G/pl17.py --steps 200 --out $RUN/ckpt > out.log 2>&1
echo "exit=$?" >&2
