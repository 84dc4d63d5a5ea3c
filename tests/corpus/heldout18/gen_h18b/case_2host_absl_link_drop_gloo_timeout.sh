#!/bin/bash
# HANG: two "hosts" (network namespaces trn-node1/trn-node2 on a veth link, net2.sh), torchrun --nnodes 2 x 1 process,
# FSDP2 on gloo with a 90 s process-group timeout, absl-style lines from rank 0. After the step-300 line every packet
# between the hosts is silently dropped (iptables -j DROP in trn-node2's namespace, INPUT and OUTPUT on h2eth0), as a
# dead switch port would; no reset is sent. Output of both agents prefixed with the host, pdsh-style.
CASE=link_drop; source "$(dirname "$0")/common.sh"; source $G/net2.sh
net_down; net_up; : > out.log
A="$G/t18.py --fsdp --fmt absl --steps 1200 --log-every 20 --pg-timeout 90"
(TR2 1 $A >> out.log) & (TR2 2 $A >> out.log) &
waitfor "\[300\] train/loss" out.log 400
ip netns exec lab18h2 iptables -A INPUT -i h2eth0 -j DROP; ip netns exec lab18h2 iptables -A OUTPUT -o h2eth0 -j DROP
date -u +"drop at %T" >&2
wait; date -u +"ended %T" >&2; net_down
