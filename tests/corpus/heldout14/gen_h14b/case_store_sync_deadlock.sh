#!/bin/bash
# HANG: the loop does a TCPStore handshake every 100 steps (store.set + store.wait, 150 s timeout);
# at step 100 rank 1 deadlocks on two Python locks (a thread-ordering bug, no message) before its
# store.set, so rank 0's store.wait times out after 150 s of silence.
CASE=store_sync_deadlock; . "$(dirname "$0")/common.sh"
$TR $G/loop14.py --steps 400 --epoch-sync-timeout 150 --deadlock-at 100 --log-every 25 --ckpt-every 50 > out.log 2>&1; echo "rc=$?" > rc.txt
