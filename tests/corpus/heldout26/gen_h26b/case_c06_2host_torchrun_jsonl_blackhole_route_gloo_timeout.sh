#!/bin/bash
# torchrun --nnodes 2 on two namespace hosts, JSON-lines metrics, --pg-timeout 60; after step 1000 host 2 gets
# 'ip route add blackhole 10.226.7.11/32' (everything it sends to trn-b26-01 is discarded) and is left so.
CASE=c06; source /work/wt26b/tests/corpus/heldout26/gen_h26b/common.sh; source /work/wt26b/tests/corpus/heldout26/gen_h26b/net26.sh
netdown; netup
(TR2 1 $T26 --style jsonl --steps 5000 --log-every 100 --pg-timeout 60 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T26 --style jsonl --steps 5000 --log-every 100 --pg-timeout 60 >> out.log 2>&1 &)
waitfor '"rank": 0, "step": 1000,' out.log 300
ip -n l26bh2 route add blackhole 10.226.7.11/32; log blackhole
for i in $(seq 1 60); do [ $(quiet out.log) -gt 100 ] && break; sleep 3; done
for i in $(seq 1 30); do pgrep -f "rdzv-id l26bjob" >/dev/null || break; sleep 3; done
cp out.log kept.log; log copied
for p in $(pgrep -f "rdzv-id l26bjob"); do kill $p; done; sleep 5; for p in $(pgrep -f "rdzv-id l26bjob"); do kill -9 $p; done
netdown
