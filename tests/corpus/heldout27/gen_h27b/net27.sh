# two network namespaces l27bh1/l27bh2 (UTS host names gpu-a27-01/gpu-a27-02 via unshare), 10.227.7.11/12 on a veth
# pair l27bv1/l27bv2; both names in /etc/netns/<ns>/hosts.
netup() {
  for n in 1 2; do ip netns add l27bh$n; mkdir -p /etc/netns/l27bh$n
    printf '127.0.0.1 localhost\n10.227.7.11 gpu-a27-01\n10.227.7.12 gpu-a27-02\n' > /etc/netns/l27bh$n/hosts; done
  ip link add l27bv1 type veth peer name l27bv2
  ip link set l27bv1 netns l27bh1; ip link set l27bv2 netns l27bh2
  ip -n l27bh1 addr add 10.227.7.11/24 dev l27bv1; ip -n l27bh2 addr add 10.227.7.12/24 dev l27bv2
  for n in 1 2; do ip -n l27bh$n link set lo up; ip -n l27bh$n link set l27bv$n up; done
}
netdown() { ip netns del l27bh1 2>/dev/null; ip netns del l27bh2 2>/dev/null; rm -rf /etc/netns/l27bh1 /etc/netns/l27bh2; }
# TR2 N args...: torchrun on host N (2 nodes x 1 proc, c10d rendezvous at gpu-a27-01:38426)
TR2() { local n=$1; shift
  ip netns exec l27bh$n unshare --uts bash -c "hostname gpu-a27-0$n; cd $RUN; export OMP_NUM_THREADS=1 GLOO_SOCKET_IFNAME=l27bv$n; exec nice -n 10 $V/python -m torch.distributed.run --nnodes 2 --nproc-per-node 1 --rdzv-backend c10d --rdzv-endpoint gpu-a27-01:38426 --rdzv-id a27job $*"; }
