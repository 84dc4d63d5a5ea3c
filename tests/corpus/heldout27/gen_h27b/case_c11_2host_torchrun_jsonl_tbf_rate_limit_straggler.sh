#!/bin/bash
# two namespace hosts, torchrun --nnodes 2, JSON lines from both ranks; after step 700 host 2's egress is limited with
# 'tc qdisc add dev l27bv2 root tbf rate 60mbit' until the end: every all-reduce slows.
CASE=c11; source /work/wt27b/tests/corpus/heldout27/gen_h27b/common.sh; source $G/net27.sh; netdown; netup
(TR2 1 $T --style jsonl --steps 1600 --log-every 50 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style jsonl --steps 1600 --log-every 50 >> out.log 2>&1 &)
waitfor '"step": 700,' out.log 400; ip netns exec l27bh2 tc qdisc add dev l27bv2 root tbf rate 60mbit burst 32kbit latency 400ms; log tbf
waitgone 500; sleep 3; netdown
