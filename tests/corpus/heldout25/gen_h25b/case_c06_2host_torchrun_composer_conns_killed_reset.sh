#!/bin/bash
# two namespace hosts, torchrun (1 proc each), Composer-style; at batch ~900 every TCP connection from host 2 to host 1
# is destroyed with 'ss -K' inside host 2 (an RST goes to host 1): gloo reports the broken connection.
CASE=c06; source /work/wt25b/tests/corpus/heldout25/gen_h25b/common.sh; source $G/net25.sh
netdown; netup
(TR2 1 $T25 --style composer --steps 4000 --log-every 100 --pg-timeout 120 >> out.log 2>&1 &)
sleep 1; (TR2 2 $T25 --style composer --steps 4000 --log-every 100 --pg-timeout 120 >> out.log 2>&1 &)
waitfor "batch=900/" out.log 300
ip netns exec l25bh2 ss -K dst 10.225.7.11; echo "killed conns $(date -u +%T)"
for i in $(seq 1 100); do [ -z "$(pgrep -f 'rdzv-id l25bjob')" ] && break; sleep 3; done
sleep 3; cp out.log kept.log; echo "copied $(date -u +%T)"
for p in $(pgrep -f 'rdzv-id l25bjob'); do kill $p; done; sleep 2; netdown
