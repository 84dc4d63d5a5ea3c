#!/bin/bash
# HANG: 2-stage GPipe pipeline, process-group timeout 60 s; from step 300 rank 1 (last stage) blocks
# for 15 min fetching its batch (injected sleep in its data path), so stage 0 waits on the pipeline
# recv until gloo's timeout fires.
CASE=pipe_data_stall_timeout; . "$(dirname "$0")/common.sh"
$TR $G/lm13.py --mode pipe --layers 4 --steps 1000 --log-every 50 --jsonl --timeout 60 \
  --data-delay-ms 1:300:900000 > out.log 2>&1; echo "rc=$?" > rc.txt
