#!/bin/bash
# HANG: t16.py with JSON-lines logging under torchrun (process-group timeout 30 s). A lock file is held by another
# process (flock, standing in for another job's dataset lock); at step 300 rank 1 waits for it forever, rank 0 waits
# in the DDP all-reduce until gloo's 30 s timeout fires.
CASE=jsonl_flock_timeout; source "$(dirname "$0")/common.sh"
rm -f /tmp/lab16b_dataset.lock; touch /tmp/lab16b_dataset.lock
flock /tmp/lab16b_dataset.lock sleep 200 & F=$!
$TR $G/t16.py --fmt json --steps 1000 --log-every 50 --block-at 300 --block-rank 1 --pg-timeout 30 > out.log 2>&1 & L=$!
for i in $(seq 1 120); do kill -0 $L 2>/dev/null || break; grep -q "ChildFailedError" out.log && break; sleep 1; done
sleep 3; kill $L 2>/dev/null; wait $L; echo "exit=$?" >&2
kill $F; rm -f /tmp/lab16b_dataset.lock
