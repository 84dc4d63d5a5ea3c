#!/bin/bash
# APPLICATION: --eval-glob "val-*.bin" names no file (the shards are valid-*.bin): the first eval (step 150) averages
# over zero batches -> ZeroDivisionError on both ranks.
CASE=eval_glob; source "$(dirname "$0")/common.sh"
$TR $T20 --fmt plain --steps 1000 --log-every 25 --eval-every 150 --eval-glob "val-*.bin" --ckpt-every 100 --ckpt-dir $RUN/ckpt > out.log 2>&1
echo "exit=$?" >&2
