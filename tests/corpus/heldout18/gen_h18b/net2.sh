# sourced by the two-"host" cases: two network namespaces joined by a veth pair stand in for two hosts on one link.
#   lab18h1: veth h1eth0 10.218.0.1/24, UTS hostname trn-node1 (rendezvous host)
#   lab18h2: veth h2eth0 10.218.0.2/24, UTS hostname trn-node2
#   (/etc/netns/lab18hN/hosts, which `ip netns exec` mounts over /etc/hosts, names both hosts)
# onhost N CMD...  runs CMD in host N's network namespace with hostname trn-nodeN (a new UTS namespace each call).
net_up() {
  ip netns add lab18h1; ip netns add lab18h2
  for n in 1 2; do mkdir -p /etc/netns/lab18h$n; printf '127.0.0.1 localhost\n10.218.0.1 trn-node1\n10.218.0.2 trn-node2\n' > /etc/netns/lab18h$n/hosts; done
  ip link add h1eth0 type veth peer name h2eth0
  ip link set h1eth0 netns lab18h1; ip link set h2eth0 netns lab18h2
  ip -n lab18h1 addr add 10.218.0.1/24 dev h1eth0; ip -n lab18h2 addr add 10.218.0.2/24 dev h2eth0
  for n in 1 2; do ip -n lab18h$n link set lo up; ip -n lab18h$n link set h${n}eth0 up; done
}
net_down() { ip netns del lab18h1 2>/dev/null; ip netns del lab18h2 2>/dev/null; rm -rf /etc/netns/lab18h1 /etc/netns/lab18h2; true; }
onhost() { local n=$1; shift; ip netns exec lab18h$n unshare --uts bash -c "hostname trn-node$n; exec \"\$@\"" _ "$@"; }
# torchrun with 2 nodes x 1 process, rendezvous on trn-node1; output prefixed with the host name as pdsh does
TR2() { local n=$1; shift
  onhost $n env OMP_NUM_THREADS=1 nice -n 10 $V/python -m torch.distributed.run --nnodes 2 --nproc-per-node 1 \
    --rdzv-backend c10d --rdzv-endpoint 10.218.0.1:29418 --rdzv-id lab18 "$@" 2>&1 | sed -u "s/^/trn-node$n: /"; }
