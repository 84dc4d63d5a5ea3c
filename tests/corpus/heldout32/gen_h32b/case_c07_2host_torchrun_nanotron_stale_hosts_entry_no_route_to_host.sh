#!/bin/bash
# two namespace hosts, Nanotron-style, --rdzv-conf join_timeout=60; gpu-b32-02's hosts file carries a stale address for
# gpu-b32-01 (10.232.7.21, which no host has), so its agent's connections to the rendezvous store find no route.
CASE=c07; PORT=43687; source /work/wt32b/tests/corpus/heldout32/gen_h32b/common.sh; source $G/net32.sh; netdown; netup
printf '127.0.0.1 localhost\n10.232.7.21 gpu-b32-01\n10.232.7.12 gpu-b32-02\n' > /etc/netns/l32bh2/hosts
export RDZV_CONF=join_timeout=60
(TR2 1 $T --style nanotron --steps 3000 --log-every 100 --ckpt-dir checkpoints --ckpt-every 1000 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style nanotron --steps 3000 --log-every 100 --ckpt-dir checkpoints --ckpt-every 1000 >> out.log 2>&1 &)
sleep 10; for i in $(seq 1 150); do [ -z "$(agentpids)" ] && break; sleep 1; done; sleep 3; for p in $(agentpids); do kill $p; done; sleep 3; for p in $(agentpids); do kill -9 $p; done; netdown
