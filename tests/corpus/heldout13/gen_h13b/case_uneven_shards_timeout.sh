#!/bin/bash
# HANG: contiguous per-rank sharding of a 3999-sample file gives rank 1 one batch fewer per epoch;
# rank 1 finishes its epoch and waits in the end-of-epoch barrier while rank 0 runs one more step's
# DDP all-reduce; the mismatched collectives wait until the 60 s process-group timeout.
CASE=uneven_shards_timeout; . "$(dirname "$0")/common.sh"
$V/python $G/mkdata.py tokens.bin $((3999*65))
$TR $G/lm13.py --steps 600 --log-every 25 --shard contiguous --timeout 60 > out.log 2>&1; echo "rc=$?" > rc.txt
