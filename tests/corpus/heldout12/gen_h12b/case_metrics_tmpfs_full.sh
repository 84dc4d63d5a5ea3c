#!/bin/bash
# FSDP2 run writing per-rank metrics JSONL to a 64 KiB tmpfs (a small local scratch mount) that
# another job's files nearly fill; the metrics writes fill it up part-way into the run.
CASE=metrics_tmpfs_full; . "$(dirname "$0")/common.sh"
mkdir -p metrics; mount -t tmpfs -o size=64k tmpfs metrics
head -c 56000 /dev/urandom > metrics/other_job_events.bin
$TITAN --steps 400 --log-freq 2 --metrics-dir metrics > out.log 2>&1
echo "rc=$?" > rc.txt; umount metrics
