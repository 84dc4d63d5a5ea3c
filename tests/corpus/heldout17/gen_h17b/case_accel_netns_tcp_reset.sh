#!/bin/bash
# NETWORK: torchrun, 2 processes, Accelerate custom loop, run in its own network namespace (unshare -n, lo up). After
# the step-250 line, iptables in that namespace answers every packet to or from rank 1's TCP ports with a TCP reset
# (REJECT --reject-with tcp-reset), as a failing link would. The namespace (and its rules) goes away with the run.
CASE=accel_tcp_reset; source "$(dirname "$0")/common.sh"
unshare -n bash -c "ip link set lo up; exec $TR $G/a17.py --steps 600 --log-every 25" > out.log 2>&1 & L=$!
waitfor "step 250/" out.log 400; P=$(envpids "a17.py --steps 600" RANK=1)
NS="nsenter --net=/proc/$P/ns/net"
$NS iptables -I INPUT -i lo -p tcp --tcp-flags RST RST -j ACCEPT  # let the resets themselves through
for p in $($NS ss -tnpH state established | grep "pid=$P," | awk '{print $3}' | sed 's/.*://' | sort -u); do
  $NS iptables -A INPUT -i lo -p tcp --sport $p -j REJECT --reject-with tcp-reset
  $NS iptables -A INPUT -i lo -p tcp --dport $p -j REJECT --reject-with tcp-reset; done
wait $L; echo "exit=$?" >&2
