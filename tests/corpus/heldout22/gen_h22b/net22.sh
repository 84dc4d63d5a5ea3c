# sourced by the two-"host" case: two network namespaces joined by a veth pair stand in for two hosts.
#   l22bh1: veth b22e1 10.222.7.11/24, UTS hostname gpu-r07n11 (rendezvous host)
#   l22bh2: veth b22e2 10.222.7.12/24, UTS hostname gpu-r07n12
net_up() {
  for n in 1 2; do ip netns add l22bh$n; mkdir -p /etc/netns/l22bh$n
    printf '127.0.0.1 localhost\n10.222.7.11 gpu-r07n11\n10.222.7.12 gpu-r07n12\n' > /etc/netns/l22bh$n/hosts; done
  ip link add b22e1 type veth peer name b22e2
  ip link set b22e1 netns l22bh1; ip link set b22e2 netns l22bh2
  ip -n l22bh1 addr add 10.222.7.11/24 dev b22e1; ip -n l22bh2 addr add 10.222.7.12/24 dev b22e2
  for n in 1 2; do ip -n l22bh$n link set lo up; ip -n l22bh$n link set b22e$n up; done
}
net_down() { ip netns del l22bh1 2>/dev/null; ip netns del l22bh2 2>/dev/null; rm -rf /etc/netns/l22bh1 /etc/netns/l22bh2; true; }
HN=(x gpu-r07n11 gpu-r07n12)
onhost() { local n=$1; shift; ip netns exec l22bh$n unshare --uts bash -c "hostname ${HN[$n]}; exec \"\$@\"" _ "$@"; }
# torchrun 2 nodes x 1 process, rendezvous on gpu-r07n11; output prefixed with the host name (as pdsh -S does)
TR2() { local n=$1; shift
  onhost $n env OMP_NUM_THREADS=1 nice -n 10 $V/python -m torch.distributed.run --nnodes 2 --nproc-per-node 1 \
    --rdzv-backend c10d --rdzv-endpoint gpu-r07n11:29422 --rdzv-id h22b "$@" 2>&1 | sed -u "s/^/${HN[$n]}: /"; }
