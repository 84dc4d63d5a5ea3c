# two network namespaces l29bh1/l29bh2 (UTS host names gpu-b29-01/gpu-b29-02 via unshare), 10.229.7.11/12 on a veth
# pair l29bv1/l29bv2; both names in /etc/netns/<ns>/hosts.
netup() {
  for n in 1 2; do ip netns add l29bh$n; mkdir -p /etc/netns/l29bh$n
    printf '127.0.0.1 localhost\n10.229.7.11 gpu-b29-01\n10.229.7.12 gpu-b29-02\n' > /etc/netns/l29bh$n/hosts; done
  ip link add l29bv1 type veth peer name l29bv2
  ip link set l29bv1 netns l29bh1; ip link set l29bv2 netns l29bh2
  ip -n l29bh1 addr add 10.229.7.11/24 dev l29bv1; ip -n l29bh2 addr add 10.229.7.12/24 dev l29bv2
  for n in 1 2; do ip -n l29bh$n link set lo up; ip -n l29bh$n link set l29bv$n up; done
}
netdown() { ip netns del l29bh1 2>/dev/null; ip netns del l29bh2 2>/dev/null; rm -rf /etc/netns/l29bh1 /etc/netns/l29bh2; }
# TR2 N args...: torchrun on host N (2 nodes x 1 proc, c10d rendezvous at gpu-b29-01:$PORT)
TR2() { local n=$1; shift
  ip netns exec l29bh$n unshare --uts bash -c "hostname gpu-b29-0$n; cd $RUN; export OMP_NUM_THREADS=1 GLOO_SOCKET_IFNAME=l29bv$n $EXTRA_ENV; exec nice -n 10 $V/python -m torch.distributed.run --nnodes 2 --nproc-per-node 1 --rdzv-backend c10d --rdzv-endpoint gpu-b29-01:$PORT --rdzv-id b29job $*"; }
EXTRA_ENV=${EXTRA_ENV:-}
