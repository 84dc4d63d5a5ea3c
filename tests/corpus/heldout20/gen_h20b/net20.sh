# sourced by the two-"host" case: two network namespaces joined by a veth pair stand in for two hosts on one link.
#   lab20h1: veth a1eth0 10.220.0.1/24, UTS hostname cn-r07-01 (rendezvous host)
#   lab20h2: veth a2eth0 10.220.0.2/24, UTS hostname cn-r07-02
# /etc/netns/lab20hN/{hosts,resolv.conf} are mounted over /etc/hosts and /etc/resolv.conf by `ip netns exec`.
# Host 1's hosts file names both hosts; host 2's names only itself and its resolver is 10.220.0.1, where no DNS
# server answers (a node whose name service is broken).
net_up() {
  ip netns add lab20h1; ip netns add lab20h2
  mkdir -p /etc/netns/lab20h1 /etc/netns/lab20h2
  printf '127.0.0.1 localhost\n10.220.0.1 cn-r07-01\n10.220.0.2 cn-r07-02\n' > /etc/netns/lab20h1/hosts
  printf '127.0.0.1 localhost\n10.220.0.2 cn-r07-02\n' > /etc/netns/lab20h2/hosts
  printf 'nameserver 10.220.0.1\n' > /etc/netns/lab20h1/resolv.conf
  printf 'nameserver 10.220.0.1\noptions timeout:2 attempts:2\n' > /etc/netns/lab20h2/resolv.conf
  ip link add a1eth0 type veth peer name a2eth0
  ip link set a1eth0 netns lab20h1; ip link set a2eth0 netns lab20h2
  ip -n lab20h1 addr add 10.220.0.1/24 dev a1eth0; ip -n lab20h2 addr add 10.220.0.2/24 dev a2eth0
  for n in 1 2; do ip -n lab20h$n link set lo up; ip -n lab20h$n link set a${n}eth0 up; done
}
net_down() { ip netns del lab20h1 2>/dev/null; ip netns del lab20h2 2>/dev/null; rm -rf /etc/netns/lab20h1 /etc/netns/lab20h2; true; }
onhost() { local n=$1; shift; ip netns exec lab20h$n unshare --uts bash -c "hostname cn-r07-0$n; exec \"\$@\"" _ "$@"; }
# torchrun with 2 nodes x 1 process, rendezvous on cn-r07-01 by name; output prefixed with the host name as pdsh does
TR2() { local n=$1; shift
  onhost $n env OMP_NUM_THREADS=1 nice -n 10 $V/python -m torch.distributed.run --nnodes 2 --nproc-per-node 1 \
    --rdzv-backend c10d --rdzv-endpoint cn-r07-01:29420 --rdzv-id lm20 --rdzv-conf join_timeout=90 "$@" 2>&1 | sed -u "s/^/cn-r07-0$n: /"; }
