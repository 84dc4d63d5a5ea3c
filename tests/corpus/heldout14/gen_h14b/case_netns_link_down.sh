#!/bin/bash
# NETWORK: srun -l style, two "hosts": rank 0 in the root network namespace (10.214.0.1 on veth v14a), rank 1
# in namespace n14 (10.214.0.2 on v14b, tcp_retries2=3), gloo bound to the veth pair. After step 150 the link
# goes down on rank 1's side, like a failed cable/switch port;
# both processes stay alive. The gloo timeout is 90 s.
# (netem is not available in this kernel, so the link is taken down on rank 1's side instead: `ip link set v14b down`.)
CASE=netns_link_down; . "$(dirname "$0")/common.sh"
cleanup() { ip netns del n14 2>/dev/null; ip link del v14a 2>/dev/null; }
cleanup; ip netns add n14; ip link add v14a type veth peer name v14b; ip link set v14b netns n14
ip addr add 10.214.0.1/24 dev v14a; ip link set v14a up
ip netns exec n14 ip addr add 10.214.0.2/24 dev v14b; ip netns exec n14 ip link set v14b up; ip netns exec n14 ip link set lo up
ip netns exec n14 sysctl -qw net.ipv4.tcp_retries2=3
A="--steps 3000 --log-every 25 --ckpt-every 100 --timeout-s 90"
( MASTER_ADDR=10.214.0.1 MASTER_PORT=29716 RANK=0 LOCAL_RANK=0 WORLD_SIZE=2 GLOO_SOCKET_IFNAME=v14a \
  nice -n 10 $V/python -u $G/loop14.py $A 2>&1 | sed -u "s/^/0: /" >> out.log ) &
( ip netns exec n14 env MASTER_ADDR=10.214.0.1 MASTER_PORT=29716 RANK=1 LOCAL_RANK=0 WORLD_SIZE=2 GLOO_SOCKET_IFNAME=v14b \
  nice -n 10 $V/python -u $G/loop14.py $A 2>&1 | sed -u "s/^/1: /" >> out.log ) &
waitfor "step 150/3000" out.log 120
ip netns exec n14 ip link set v14b down
wait; echo "rc=$?" > rc.txt; cleanup
