#!/bin/bash
# two namespace hosts, torchrun --nnodes 2 (--rdzv-conf join_timeout=90), torchtitan-like; before launch host 2's route
# to the 10.228.7.0/24 subnet is deleted (a broken network config on that host): its agent cannot reach the c10d store
# on gpu-b28-01, and host 1's agent waits for the second node until its join timeout.
CASE=f06; PORT=39686; source /work/wt28b/tests/corpus/heldout28/gen_h28b/common.sh; source $G/net28.sh; netdown; netup
ip -n l28bh2 route del 10.228.7.0/24 dev l28bv2
(TR2 1 --rdzv-conf join_timeout=90 $T --style titan --steps 1500 --log-every 50 >> out.log 2>&1 &)
sleep 2; (TR2 2 --rdzv-conf join_timeout=90 $T --style titan --steps 1500 --log-every 50 >> out.log 2>&1 &)
waitgone 400; log gone; sleep 3; netdown
