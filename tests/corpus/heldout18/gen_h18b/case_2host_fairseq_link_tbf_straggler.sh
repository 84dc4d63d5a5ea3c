#!/bin/bash
# STRAGGLER: two "hosts" (network namespaces trn-node1/trn-node2 on a veth link, net2.sh), torchrun --nnodes 2 x 1
# process each, DDP on gloo, fairseq-style progress lines from rank 0. After the update-500 line the link from
# trn-node2 is rate-limited with a token bucket (tc qdisc tbf rate 150mbit on h2eth0), standing in for a degraded
# link / port renegotiated to a lower speed, until the end. Output of both agents prefixed with the host, pdsh-style.
CASE=tbf_straggler; source "$(dirname "$0")/common.sh"; source $G/net2.sh
net_down; net_up; : > out.log
A="$G/t18.py --fmt fairseq --steps 1500 --log-every 50 --epoch-steps 750"
(TR2 1 $A >> out.log) & (TR2 2 $A >> out.log) &
waitfor "num_updates=500," out.log 400
ip netns exec lab18h2 tc qdisc add dev h2eth0 root tbf rate 150mbit burst 32kbit latency 50ms; echo "tbf on" >&2
wait; net_down
