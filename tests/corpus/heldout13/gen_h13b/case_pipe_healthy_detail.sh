#!/bin/bash
# Healthy: 2-stage GPipe pipeline (torch.distributed.pipelining), JSON-lines metrics, checkpoints
# every 200 steps, TORCH_DISTRIBUTED_DEBUG=INFO TORCH_CPP_LOG_LEVEL=INFO c10d noise. No fault.
CASE=pipe_healthy_detail; . "$(dirname "$0")/common.sh"
TORCH_DISTRIBUTED_DEBUG=INFO TORCH_CPP_LOG_LEVEL=INFO $TR $G/lm13.py --mode pipe --layers 4 --steps 600 \
  --log-every 50 --jsonl --ckpt-every 200 > out.log 2>&1; echo "rc=$?" > rc.txt
