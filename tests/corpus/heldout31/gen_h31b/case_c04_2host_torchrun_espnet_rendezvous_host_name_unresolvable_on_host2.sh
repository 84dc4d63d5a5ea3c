#!/bin/bash
# two namespace hosts, torchrun --nnodes 2 --rdzv-conf join_timeout=120, ESPnet-style; gpu-b31-02's hosts file lacks
# gpu-b31-01 (the rendezvous host name does not resolve there) -> host 2's torchrun cannot create the store client;
# host 1 waits for a second node until the join timeout.
CASE=c04; PORT=42684; RDZV_CONF=join_timeout=120; HOSTS2='127.0.0.1 localhost\n10.231.7.12 gpu-b31-02\n'; source /work/wt31b/tests/corpus/heldout31/gen_h31b/common.sh; source $G/net31.sh; netdown; netup
(TR2 1 $T --style espnet --steps 4000 --log-every 100 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style espnet --steps 4000 --log-every 100 >> out.log 2>&1 &)
sleep 20; for i in $(seq 1 200); do [ -z "$(agentpids)" ] && break; sleep 1; done; log "agents left: $(agentpids)"
for p in $(agentpids); do kill $p; done; sleep 3; netdown
