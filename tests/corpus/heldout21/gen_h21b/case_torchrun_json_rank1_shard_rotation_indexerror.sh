#!/bin/bash
# CRASH (program): torchrun 2 ranks, JSON lines; --shard-per-epoch makes rank r read train shard
# files[epoch*world + r] with no wrap-around; with 5 shards rank 1 indexes files[5] at the start of epoch 2
# (step 200) and raises IndexError, rank 0 has a shard and goes on until torchrun stops it. Nothing injected.
CASE=tr_shard; source "$(dirname "$0")/common.sh"
$TR $T21 --fmt json --steps 600 --samples-per-epoch 6400 --shard-per-epoch --log-every 25 --ckpt-every 100 \
  --ckpt-dir $RUN/ckpt > out.log 2>&1
echo "exit=$?" >&2
