# two network namespaces l28bh1/l28bh2 (UTS host names gpu-b28-01/gpu-b28-02 via unshare), 10.228.7.11/12 on a veth
# pair l28bv1/l28bv2; both names in /etc/netns/<ns>/hosts.
netup() {
  for n in 1 2; do ip netns add l28bh$n; mkdir -p /etc/netns/l28bh$n
    printf '127.0.0.1 localhost\n10.228.7.11 gpu-b28-01\n10.228.7.12 gpu-b28-02\n' > /etc/netns/l28bh$n/hosts; done
  ip link add l28bv1 type veth peer name l28bv2
  ip link set l28bv1 netns l28bh1; ip link set l28bv2 netns l28bh2
  ip -n l28bh1 addr add 10.228.7.11/24 dev l28bv1; ip -n l28bh2 addr add 10.228.7.12/24 dev l28bv2
  for n in 1 2; do ip -n l28bh$n link set lo up; ip -n l28bh$n link set l28bv$n up; done
}
netdown() { ip netns del l28bh1 2>/dev/null; ip netns del l28bh2 2>/dev/null; rm -rf /etc/netns/l28bh1 /etc/netns/l28bh2; }
# TR2 N args...: torchrun on host N (2 nodes x 1 proc, c10d rendezvous at gpu-b28-01:$PORT)
TR2() { local n=$1; shift
  ip netns exec l28bh$n unshare --uts bash -c "hostname gpu-b28-0$n; cd $RUN; export OMP_NUM_THREADS=1 GLOO_SOCKET_IFNAME=l28bv$n $EXTRA_ENV; exec nice -n 10 $V/python -m torch.distributed.run --nnodes 2 --nproc-per-node 1 --rdzv-backend c10d --rdzv-endpoint gpu-b28-01:$PORT --rdzv-id b28job $*"; }
EXTRA_ENV=${EXTRA_ENV:-}
