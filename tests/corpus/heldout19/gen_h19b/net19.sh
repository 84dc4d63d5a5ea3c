# sourced by the two-"host" cases: two network namespaces joined by a veth pair stand in for two hosts on one link.
#   lab19h1: veth l19a 10.219.0.1/24, UTS hostname cpu-a01 (JAX process 0, coordination service)
#   lab19h2: veth l19b 10.219.0.2/24, UTS hostname cpu-a02 (JAX process 1)
# (/etc/netns/lab19hN/hosts, which `ip netns exec` mounts over /etc/hosts, names both hosts)
net_up() {
  ip netns add lab19h1; ip netns add lab19h2
  for n in 1 2; do mkdir -p /etc/netns/lab19h$n; printf '127.0.0.1 localhost\n10.219.0.1 cpu-a01\n10.219.0.2 cpu-a02\n' > /etc/netns/lab19h$n/hosts; done
  ip link add l19a type veth peer name l19b
  ip link set l19a netns lab19h1; ip link set l19b netns lab19h2
  ip -n lab19h1 addr add 10.219.0.1/24 dev l19a; ip -n lab19h2 addr add 10.219.0.2/24 dev l19b
  for n in 1 2; do ip -n lab19h$n link set lo up; done
  ip -n lab19h1 link set l19a up; ip -n lab19h2 link set l19b up
}
net_down() { ip netns del lab19h1 2>/dev/null; ip netns del lab19h2 2>/dev/null; rm -rf /etc/netns/lab19h1 /etc/netns/lab19h2; true; }
# onhost N CMD...: CMD in host N's namespace with hostname cpu-a0N (a new UTS namespace each call)
onhost() { local n=$1; shift; ip netns exec lab19h$n unshare --uts bash -c "hostname cpu-a0$n; exec \"\$@\"" _ "$@"; }
# JAX process N-1 on host N; output prefixed with the host name (as pdsh/clush do); both append to out.log
JH() { local n=$1; shift
  onhost $n env OMP_NUM_THREADS=1 nice -n 10 $V/python $G/j19.py --coord 10.219.0.1:29741 --nproc 2 --pid $((n-1)) "$@" 2>&1 \
    | sed -u "s/^/cpu-a0$n: /" >> out.log; }
