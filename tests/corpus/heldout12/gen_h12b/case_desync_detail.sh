#!/bin/bash
# FSDP2 run whose evaluation all-reduces the eval loss only on rank 0 (a rank-dependent collective),
# launched with TORCH_DISTRIBUTED_DEBUG=DETAIL (collective fingerprint checks).
CASE=desync_detail; . "$(dirname "$0")/common.sh"
TORCH_DISTRIBUTED_DEBUG=DETAIL $TITAN --steps 200 --log-freq 10 --eval-freq 50 --pg-timeout 120 > out.log 2>&1
echo "rc=$?" > rc.txt
