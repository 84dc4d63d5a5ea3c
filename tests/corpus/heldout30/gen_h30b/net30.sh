# two network namespaces l30bh1/l30bh2 (UTS host names gpu-b30-01/gpu-b30-02 via unshare), 10.230.7.11/12 on a veth
# pair l30bv1/l30bv2; both names in /etc/netns/<ns>/hosts.
netup() {
  for n in 1 2; do ip netns add l30bh$n; mkdir -p /etc/netns/l30bh$n
    printf '127.0.0.1 localhost\n10.230.7.11 gpu-b30-01\n10.230.7.12 gpu-b30-02\n' > /etc/netns/l30bh$n/hosts; done
  ip link add l30bv1 type veth peer name l30bv2
  ip link set l30bv1 netns l30bh1; ip link set l30bv2 netns l30bh2
  ip -n l30bh1 addr add 10.230.7.11/24 dev l30bv1; ip -n l30bh2 addr add 10.230.7.12/24 dev l30bv2
  for n in 1 2; do ip -n l30bh$n link set lo up; ip -n l30bh$n link set l30bv$n up; done
}
netdown() { ip netns del l30bh1 2>/dev/null; ip netns del l30bh2 2>/dev/null; rm -rf /etc/netns/l30bh1 /etc/netns/l30bh2; }
# TR2 N args...: torchrun on host N (2 nodes x 1 proc, c10d rendezvous at gpu-b30-01:$PORT)
TR2() { local n=$1; shift
  ip netns exec l30bh$n unshare --uts bash -c "hostname gpu-b30-0$n; cd $RUN; export OMP_NUM_THREADS=1 GLOO_SOCKET_IFNAME=l30bv$n $EXTRA_ENV; exec nice -n 10 $V/python -m torch.distributed.run --nnodes 2 --nproc-per-node 1 --rdzv-backend c10d --rdzv-endpoint gpu-b30-01:$PORT --rdzv-id b30job $*"; }
EXTRA_ENV=${EXTRA_ENV:-}
