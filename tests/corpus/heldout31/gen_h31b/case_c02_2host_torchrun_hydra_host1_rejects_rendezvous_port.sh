#!/bin/bash
# two namespace hosts, torchrun --nnodes 2 --rdzv-conf join_timeout=120, Hydra-style; before the start gpu-b31-01's
# firewall rejects (tcp-reset) connections from gpu-b31-02 to the rendezvous port 42682 -> host 2 cannot reach the
# c10d store, host 1 waits for a second node until the join timeout.
CASE=c02; PORT=42682; RDZV_CONF=join_timeout=120; source /work/wt31b/tests/corpus/heldout31/gen_h31b/common.sh; source $G/net31.sh; netdown; netup
ip netns exec l31bh1 iptables -A INPUT -p tcp -s 10.231.7.12 --dport $PORT -j REJECT --reject-with tcp-reset; log reject
(TR2 1 $T --style hydra --steps 4000 --log-every 100 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style hydra --steps 4000 --log-every 100 >> out.log 2>&1 &)
sleep 20; for i in $(seq 1 200); do [ -z "$(agentpids)" ] && break; sleep 1; done; log "agents left: $(agentpids)"
for p in $(agentpids); do kill $p; done; sleep 3; netdown
