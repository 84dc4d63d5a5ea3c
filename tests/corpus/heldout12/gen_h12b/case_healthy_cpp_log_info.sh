#!/bin/bash
# Healthy FSDP2 run with DCP saves, launched with TORCH_CPP_LOG_LEVEL=INFO and
# TORCH_DISTRIBUTED_DEBUG=INFO (c10d/gloo INFO noise at start-up and shutdown); no fault injected.
CASE=healthy_cpp_log_info; . "$(dirname "$0")/common.sh"
TORCH_CPP_LOG_LEVEL=INFO TORCH_DISTRIBUTED_DEBUG=INFO $TITAN --steps 150 --log-freq 10 --ckpt-interval 50 --ckpt-folder ckpt > out.log 2>&1
echo "rc=$?" > rc.txt
