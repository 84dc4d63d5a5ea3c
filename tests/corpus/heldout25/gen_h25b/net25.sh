# two network namespaces l25bh1/l25bh2 (UTS host names gpu-n25-01/gpu-n25-02 via unshare), 10.225.7.11/12 on a veth
# pair l25bv1/l25bv2; both names in each namespace's /etc/netns/<ns>/hosts.
netup() {
  for n in 1 2; do ip netns add l25bh$n; mkdir -p /etc/netns/l25bh$n
    printf '127.0.0.1 localhost\n10.225.7.11 gpu-n25-01\n10.225.7.12 gpu-n25-02\n' > /etc/netns/l25bh$n/hosts; done
  ip link add l25bv1 type veth peer name l25bv2
  ip link set l25bv1 netns l25bh1; ip link set l25bv2 netns l25bh2
  ip -n l25bh1 addr add 10.225.7.11/24 dev l25bv1; ip -n l25bh2 addr add 10.225.7.12/24 dev l25bv2
  for n in 1 2; do ip -n l25bh$n link set lo up; ip -n l25bh$n link set l25bv$n up; done
}
netdown() { ip netns del l25bh1 2>/dev/null; ip netns del l25bh2 2>/dev/null; rm -rf /etc/netns/l25bh1 /etc/netns/l25bh2; }
# TR2 N args...: torchrun on host N (2 nodes x 1 proc, c10d rendezvous at gpu-n25-01:29425), host name gpu-n25-0N
TR2() { local n=$1; shift
  ip netns exec l25bh$n unshare --uts bash -c "hostname gpu-n25-0$n; cd $RUN; export OMP_NUM_THREADS=1 GLOO_SOCKET_IFNAME=l25bv$n; exec nice -n 10 $V/python -m torch.distributed.run --nnodes 2 --nproc-per-node 1 --rdzv-backend c10d --rdzv-endpoint gpu-n25-01:29425 --rdzv-id l25bjob $*"; }
