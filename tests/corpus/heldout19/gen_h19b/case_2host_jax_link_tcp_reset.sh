#!/bin/bash
# NETWORK: two JAX processes on two "hosts" (network namespaces cpu-a01/cpu-a02 on one veth link), loguru lines
# prefixed with the host name. After step 400, iptables in cpu-a02's namespace answers every TCP segment from
# cpu-a01 with a reset (REJECT --reject-with tcp-reset, both directions' connections), until the processes exit.
CASE=jax_2host_reset; source "$(dirname "$0")/common.sh"; source $G/net19.sh
net_down; net_up
JH 1 --steps 2000 --log-every 50 --heartbeat 60 --ckpt-dir $RUN/ckpt --ckpt-every 250 &
JH 2 --steps 2000 --log-every 50 --heartbeat 60 &
waitfor "cpu-a02: .*step=400 " out.log
ip netns exec lab19h2 iptables -A INPUT -s 10.219.0.1 -p tcp -j REJECT --reject-with tcp-reset
ip netns exec lab19h2 iptables -A OUTPUT -d 10.219.0.1 -p tcp -j REJECT --reject-with tcp-reset
echo "reset on $(date +%T)" >&2
for i in $(seq 1 300); do pgrep -f "10.219.0.1:29741" >/dev/null || break; sleep 1; done
echo "end wait $(date +%T)" >&2; sleep 3; cp out.log kept.log
pkill -9 -f "10.219.0.1:29741"; wait; net_down
