#!/bin/bash
# Same rank-dependent eval all-reduce bug under DDP, without distributed debug mode, PG timeout 60 s.
CASE=desync_nodebug; . "$(dirname "$0")/common.sh"
$TITAN --parallel ddp --steps 200 --log-freq 10 --eval-freq 40 --pg-timeout 60 > out.log 2>&1
echo "rc=$?" > rc.txt
