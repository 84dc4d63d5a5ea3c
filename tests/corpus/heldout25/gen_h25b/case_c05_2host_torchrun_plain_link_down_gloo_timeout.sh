#!/bin/bash
# two namespace hosts gpu-n25-01/02, torchrun (1 proc each), plain print lines, --pg-timeout 60; at step ~1000 host 2's
# end of the veth is set down (packets go nowhere): the all-reduce hangs until gloo's 60 s timeout.
CASE=c05; source /work/wt25b/tests/corpus/heldout25/gen_h25b/common.sh; source $G/net25.sh
netdown; netup
(TR2 1 $T25 --style plain --steps 4000 --log-every 100 --pg-timeout 60 >> out.log 2>&1 &)
sleep 1; (TR2 2 $T25 --style plain --steps 4000 --log-every 100 --pg-timeout 60 >> out.log 2>&1 &)
waitfor "step=1000/" out.log 300
ip -n l25bh2 link set l25bv2 down; echo "linkdown $(date -u +%T)"
for i in $(seq 1 100); do [ -z "$(pgrep -f 'rdzv-id l25bjob')" ] && break; sleep 3; done
sleep 3; cp out.log kept.log; echo "copied $(date -u +%T)"
for p in $(pgrep -f 'rdzv-id l25bjob'); do kill $p; done; sleep 2; netdown
