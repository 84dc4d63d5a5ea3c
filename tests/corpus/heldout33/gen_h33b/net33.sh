# two network namespaces l33bh1/l33bh2 (UTS host names gpu-b33-01/gpu-b33-02 via unshare), 10.233.7.11/12 on a veth
# pair l33bv1/l33bv2; both names in /etc/netns/<ns>/hosts.
netup() {
  for n in 1 2; do ip netns add l33bh$n; mkdir -p /etc/netns/l33bh$n
    printf '127.0.0.1 localhost\n10.233.7.11 gpu-b33-01\n10.233.7.12 gpu-b33-02\n' > /etc/netns/l33bh$n/hosts; done
  ip link add l33bv1 type veth peer name l33bv2
  ip link set l33bv1 netns l33bh1; ip link set l33bv2 netns l33bh2
  ip -n l33bh1 addr add 10.233.7.11/24 dev l33bv1; ip -n l33bh2 addr add 10.233.7.12/24 dev l33bv2
  for n in 1 2; do ip -n l33bh$n link set lo up; ip -n l33bh$n link set l33bv$n up; done
}
netdown() { ip netns del l33bh1 2>/dev/null; ip netns del l33bh2 2>/dev/null; rm -rf /etc/netns/l33bh1 /etc/netns/l33bh2; }
# TR2 N args...: torchrun on host N (2 nodes x 1 proc, c10d rendezvous at gpu-b33-01:$PORT); RDZV_CONF adds --rdzv-conf
TR2() { local n=$1; shift
  ip netns exec l33bh$n unshare --uts bash -c "hostname gpu-b33-0$n; cd $RUN; export OMP_NUM_THREADS=1 GLOO_SOCKET_IFNAME=l33bv$n $EXTRA_ENV; exec nice -n 10 $V/python -m torch.distributed.run --nnodes 2 --nproc-per-node 1 --rdzv-backend c10d --rdzv-endpoint gpu-b33-01:$PORT --rdzv-id b33job ${RDZV_CONF:+--rdzv-conf $RDZV_CONF} $*"; }
EXTRA_ENV=${EXTRA_ENV:-}
