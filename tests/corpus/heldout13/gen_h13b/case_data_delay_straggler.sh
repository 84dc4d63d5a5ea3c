#!/bin/bash
# STRAGGLER: from step 300 rank 1's batch fetch takes an extra 120 ms (injected sleep in its data
# path, like a slow local cache); JSON-lines metrics show step time and tokens/s drop and data_ms_per_rank.
CASE=data_delay_straggler; . "$(dirname "$0")/common.sh"
$TR $G/lm13.py --steps 800 --log-every 50 --jsonl --data-delay-ms 1:300:120 > out.log 2>&1; echo "rc=$?" > rc.txt
