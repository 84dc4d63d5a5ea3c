#!/bin/bash
# two namespace hosts, axolotl-style, --pg-timeout 60: from the start gpu-b33-01 refuses new TCP connections from
# gpu-b33-02 to any port but the rendezvous port (iptables conntrack NEW -> REJECT icmp-port-unreachable).
CASE=c08; PORT=44688; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh; source $G/net33.sh; netdown; netup
ip netns exec l33bh1 iptables -A INPUT -s 10.233.7.12 -p tcp -m conntrack --ctstate NEW ! --dport $PORT -j REJECT --reject-with icmp-port-unreachable
(TR2 1 $T --style axolotl --steps 3000 --epoch-steps 600 --log-every 50 --eval-every 1 --pg-timeout 60 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style axolotl --steps 3000 --epoch-steps 600 --log-every 50 --eval-every 1 --pg-timeout 60 >> out.log 2>&1 &)
sleep 20; waitgone 200; ip netns exec l33bh1 iptables -L INPUT -n -v; sleep 5; for p in $(agentpids); do kill $p; done; sleep 3; for p in $(agentpids); do kill -9 $p; done; netdown
