# two network namespaces l32bh1/l32bh2 (UTS host names gpu-b32-01/gpu-b32-02 via unshare), 10.232.7.11/12 on a veth
# pair l32bv1/l32bv2; both names in /etc/netns/<ns>/hosts.
netup() {
  for n in 1 2; do ip netns add l32bh$n; mkdir -p /etc/netns/l32bh$n
    printf '127.0.0.1 localhost\n10.232.7.11 gpu-b32-01\n10.232.7.12 gpu-b32-02\n' > /etc/netns/l32bh$n/hosts; done
  ip link add l32bv1 type veth peer name l32bv2
  ip link set l32bv1 netns l32bh1; ip link set l32bv2 netns l32bh2
  ip -n l32bh1 addr add 10.232.7.11/24 dev l32bv1; ip -n l32bh2 addr add 10.232.7.12/24 dev l32bv2
  for n in 1 2; do ip -n l32bh$n link set lo up; ip -n l32bh$n link set l32bv$n up; done
}
netdown() { ip netns del l32bh1 2>/dev/null; ip netns del l32bh2 2>/dev/null; rm -rf /etc/netns/l32bh1 /etc/netns/l32bh2; }
# TR2 N args...: torchrun on host N (2 nodes x 1 proc, c10d rendezvous at gpu-b32-01:$PORT); RDZV_CONF adds --rdzv-conf
TR2() { local n=$1; shift
  ip netns exec l32bh$n unshare --uts bash -c "hostname gpu-b32-0$n; cd $RUN; export OMP_NUM_THREADS=1 GLOO_SOCKET_IFNAME=l32bv$n $EXTRA_ENV; exec nice -n 10 $V/python -m torch.distributed.run --nnodes 2 --nproc-per-node 1 --rdzv-backend c10d --rdzv-endpoint gpu-b32-01:$PORT --rdzv-id b32job ${RDZV_CONF:+--rdzv-conf $RDZV_CONF} $*"; }
EXTRA_ENV=${EXTRA_ENV:-}
