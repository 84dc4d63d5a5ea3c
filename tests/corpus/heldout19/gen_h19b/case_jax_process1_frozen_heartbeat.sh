#!/bin/bash
# HANG: two JAX processes (coordination service heartbeat timeout 40 s, gloo CPU collectives), loguru lines.
# After step 300, process 1 is SIGSTOPped (frozen: its heartbeats and its collectives stop); nothing else is done.
CASE=jax_frozen; source "$(dirname "$0")/common.sh"
J19 29721 --steps 3000 --log-every 50 --heartbeat 40 --ckpt-dir ckpt --ckpt-every 250
waitfor "step=300 " out.log
P=$(pgrep -f "j19.py --coord 127.0.0.1:29721 --nproc 2 --pid 1"); echo "stop $P $(date +%T)" >&2; kill -STOP $P
for i in $(seq 1 240); do pgrep -f "29721 --nproc 2 --pid 0" >/dev/null || break; sleep 1; done
echo "pid0 gone or 240s $(date +%T)" >&2; sleep 5; cp out.log kept.log
kill -CONT $P; sleep 2; kill -9 $P 2>/dev/null; pkill -9 -f "29721 --nproc 2 --pid 0"; wait; true
