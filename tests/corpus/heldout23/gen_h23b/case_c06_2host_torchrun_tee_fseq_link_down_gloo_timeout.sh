#!/bin/bash
# two namespace hosts, torchrun --tee 3, fairseq-style, --pg-timeout 60; after num_updates ~600 both veth ends get
# host 1's end of the veth link is set down (`ip link set l23bv1 down`, a dead link: no RST, packets just go nowhere):
# the all-reduce hangs until gloo's timeout.
CASE=c06; source /work/wt23b/tests/corpus/heldout23/gen_h23b/common.sh; source $G/net23.sh
netdown; netup
(TR2 1 $T23 --fmt fseq --steps 3000 --epoch-steps 500 --log-every 50 --ckpt-dir ck --ckpt-every 500 --resume --pg-timeout 60 >> out.log 2>&1 &)
sleep 1; (TR2 2 $T23 --fmt fseq --steps 3000 --epoch-steps 500 --log-every 50 --ckpt-dir ck2 --ckpt-every 500 --resume --pg-timeout 60 >> out.log 2>&1 &)
waitfor "num_updates=600," out.log 300
ip -n l23bh1 link set l23bv1 down; echo "linkdown $(date -u +%T)"
for i in $(seq 1 100); do [ -z "$(pgrep -f 'rdzv-id l23bjob')" ] && break; sleep 3; done
sleep 3; cp out.log kept.log; echo "copied $(date -u +%T)"
for p in $(pgrep -f 'rdzv-id l23bjob'); do kill $p; done; sleep 2; netdown
