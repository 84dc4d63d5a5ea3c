# two network namespaces l31bh1/l31bh2 (UTS host names gpu-b31-01/gpu-b31-02 via unshare), 10.231.7.11/12 on a veth
# pair l31bv1/l31bv2; both names in /etc/netns/<ns>/hosts (HOSTS2 overrides host 2's file).
netup() {
  for n in 1 2; do ip netns add l31bh$n; mkdir -p /etc/netns/l31bh$n
    printf '127.0.0.1 localhost\n10.231.7.11 gpu-b31-01\n10.231.7.12 gpu-b31-02\n' > /etc/netns/l31bh$n/hosts; done
  [ -n "${HOSTS2:-}" ] && printf "$HOSTS2" > /etc/netns/l31bh2/hosts
  ip link add l31bv1 type veth peer name l31bv2
  ip link set l31bv1 netns l31bh1; ip link set l31bv2 netns l31bh2
  ip -n l31bh1 addr add 10.231.7.11/24 dev l31bv1; ip -n l31bh2 addr add 10.231.7.12/24 dev l31bv2
  for n in 1 2; do ip -n l31bh$n link set lo up; ip -n l31bh$n link set l31bv$n up; done
}
netdown() { ip netns del l31bh1 2>/dev/null; ip netns del l31bh2 2>/dev/null; rm -rf /etc/netns/l31bh1 /etc/netns/l31bh2; }
# TR2 N args...: torchrun on host N (2 nodes x 1 proc, c10d rendezvous at gpu-b31-01:$PORT); RDZV_CONF adds --rdzv-conf
TR2() { local n=$1; shift
  ip netns exec l31bh$n unshare --uts bash -c "hostname gpu-b31-0$n; cd $RUN; export OMP_NUM_THREADS=1 GLOO_SOCKET_IFNAME=l31bv$n $EXTRA_ENV; exec nice -n 10 $V/python -m torch.distributed.run --nnodes 2 --nproc-per-node 1 --rdzv-backend c10d --rdzv-endpoint gpu-b31-01:$PORT --rdzv-id b31job ${RDZV_CONF:+--rdzv-conf $RDZV_CONF} $*"; }
EXTRA_ENV=${EXTRA_ENV:-}
