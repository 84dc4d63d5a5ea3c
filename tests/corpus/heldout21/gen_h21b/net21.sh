# sourced by the two-"host" case: two network namespaces joined by a veth pair stand in for two hosts on one link.
#   l21bh1: veth b21e1 10.221.7.11/24, UTS hostname hpc-c042 (rendezvous host)
#   l21bh2: veth b21e2 10.221.7.12/24, UTS hostname hpc-c043
# /etc/netns/l21bhN/hosts (mounted over /etc/hosts by `ip netns exec`) names both hosts.
net_up() {
  for n in 1 2; do ip netns add l21bh$n; mkdir -p /etc/netns/l21bh$n
    printf '127.0.0.1 localhost\n10.221.7.11 hpc-c042\n10.221.7.12 hpc-c043\n' > /etc/netns/l21bh$n/hosts; done
  ip link add b21e1 type veth peer name b21e2
  ip link set b21e1 netns l21bh1; ip link set b21e2 netns l21bh2
  ip -n l21bh1 addr add 10.221.7.11/24 dev b21e1; ip -n l21bh2 addr add 10.221.7.12/24 dev b21e2
  for n in 1 2; do ip -n l21bh$n link set lo up; ip -n l21bh$n link set b21e$n up; done
}
net_down() { ip netns del l21bh1 2>/dev/null; ip netns del l21bh2 2>/dev/null; rm -rf /etc/netns/l21bh1 /etc/netns/l21bh2; true; }
HN=(x hpc-c042 hpc-c043)
onhost() { local n=$1; shift; ip netns exec l21bh$n unshare --uts bash -c "hostname ${HN[$n]}; exec \"\$@\"" _ "$@"; }
# torchrun with 2 nodes x 1 process, rendezvous on hpc-c042; output prefixed with the host name as pdsh does
TR2() { local n=$1; shift
  onhost $n env OMP_NUM_THREADS=1 nice -n 10 $V/python -m torch.distributed.run --nnodes 2 --nproc-per-node 1 \
    --rdzv-backend c10d --rdzv-endpoint hpc-c042:29421 --rdzv-id tok21 "$@" 2>&1 | sed -u "s/^/${HN[$n]}: /"; }
