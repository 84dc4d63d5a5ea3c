#!/bin/bash
# NETWORK: two "hosts" (network namespaces); cn-r07-02 cannot resolve the rendezvous host name cn-r07-01 (its hosts
# file lacks it and its DNS server does not answer). Both hosts append to one out.log.
CASE=rdzv_dns; source "$(dirname "$0")/common.sh"; source $G/net20.sh
net_down; net_up
TR2 1 $T20 --steps 400 --log-every 25 >> out.log &
sleep 1
TR2 2 $T20 --steps 400 --log-every 25 >> out.log &
wait; echo "exit=$?" >&2; net_down
