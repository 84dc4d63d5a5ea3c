#!/bin/bash
# NONE: two "hosts" (net2.sh), torchrun --nnodes 2 x 1 process, DDP on gloo (default timeout), fairseq-style lines,
# checkpoint every 400 updates. After the update-400 line the link drops every packet for 6 s (iptables DROP in
# trn-node2's namespace), then the rules are removed: TCP retransmits and training carries on.
CASE=transient_drop; source "$(dirname "$0")/common.sh"; source $G/net2.sh
net_down; net_up; : > out.log
A="$G/t18.py --fmt fairseq --steps 1200 --log-every 50 --epoch-steps 600 --ckpt-dir $RUN/ckpt --ckpt-every 400"
(TR2 1 $A >> out.log) & (TR2 2 $A >> out.log) &
waitfor "num_updates=400," out.log 400
ip netns exec lab18h2 iptables -A INPUT -i h2eth0 -j DROP; ip netns exec lab18h2 iptables -A OUTPUT -o h2eth0 -j DROP
sleep 6; ip netns exec lab18h2 iptables -F; date -u +"restored %T" >&2
wait; net_down
