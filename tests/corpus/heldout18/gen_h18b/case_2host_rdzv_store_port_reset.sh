#!/bin/bash
# NETWORK: two "hosts" (net2.sh), torchrun --nnodes 2 x 1 process, DDP on gloo, absl-style lines. After the step-300
# line, trn-node2's TCP traffic to and from the rendezvous port 29418 on trn-node1 (the torchrun agents' c10d store,
# also the workers' TCPStore) is answered with TCP resets (iptables REJECT --reject-with tcp-reset in trn-node2's
# namespace), as a firewall change closing that port would; the gloo data connections are untouched.
CASE=rdzv_reset; source "$(dirname "$0")/common.sh"; source $G/net2.sh
net_down; net_up; : > out.log
A="$G/t18.py --fmt absl --steps 1500 --log-every 20"
(TR2 1 $A >> out.log) & (TR2 2 $A >> out.log) &
waitfor "\[300\] train/loss" out.log 400
NS="ip netns exec lab18h2"
$NS iptables -A INPUT -p tcp --tcp-flags RST RST -j ACCEPT
$NS iptables -A INPUT -p tcp --sport 29418 -j REJECT --reject-with tcp-reset
$NS iptables -A OUTPUT -p tcp --dport 29418 -j REJECT --reject-with tcp-reset
date -u +"port closed %T" >&2
wait; date -u +"ended %T" >&2; net_down
