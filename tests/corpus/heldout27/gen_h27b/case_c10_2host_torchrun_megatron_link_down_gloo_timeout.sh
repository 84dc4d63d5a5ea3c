#!/bin/bash
# two namespace hosts, torchrun --nnodes 2, Megatron-style, --pg-timeout 60; after iteration 800 host 2's link is set down
# and left down: rank 0's all-reduce times out; kept.log is out.log after the host-1 torchrun exited, then host 2 is killed.
CASE=c10; source /work/wt27b/tests/corpus/heldout27/gen_h27b/common.sh; source $G/net27.sh; netdown; netup
(TR2 1 $T --style megatron --steps 2400 --log-every 100 --pg-timeout 60 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style megatron --steps 2400 --log-every 100 --pg-timeout 60 >> out.log 2>&1 &)
waitfor "iteration      800/" out.log 400; ip -n l27bh2 link set l27bv2 down; log "link down"
sleep 240; cp out.log kept.log; log "kept quiet $(quiet out.log)"; for p in $(pgrep -f "rdzv-id a27job"); do kill $p; done; sleep 5; netdown
