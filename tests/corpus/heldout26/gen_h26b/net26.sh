# two network namespaces l26bh1/l26bh2 (UTS host names trn-b26-01/trn-b26-02 via unshare), 10.226.7.11/12 on a veth
# pair l26bv1/l26bv2; both names in each namespace's /etc/netns/<ns>/hosts.
netup() {
  for n in 1 2; do ip netns add l26bh$n; mkdir -p /etc/netns/l26bh$n
    printf '127.0.0.1 localhost\n10.226.7.11 trn-b26-01\n10.226.7.12 trn-b26-02\n' > /etc/netns/l26bh$n/hosts; done
  ip link add l26bv1 type veth peer name l26bv2
  ip link set l26bv1 netns l26bh1; ip link set l26bv2 netns l26bh2
  ip -n l26bh1 addr add 10.226.7.11/24 dev l26bv1; ip -n l26bh2 addr add 10.226.7.12/24 dev l26bv2
  for n in 1 2; do ip -n l26bh$n link set lo up; ip -n l26bh$n link set l26bv$n up; done
}
netdown() { ip netns del l26bh1 2>/dev/null; ip netns del l26bh2 2>/dev/null; rm -rf /etc/netns/l26bh1 /etc/netns/l26bh2; }
# TR2 N args...: torchrun on host N (2 nodes x 1 proc, c10d rendezvous at trn-b26-01:37426), host name trn-b26-0N
TR2() { local n=$1; shift
  ip netns exec l26bh$n unshare --uts bash -c "hostname trn-b26-0$n; cd $RUN; export OMP_NUM_THREADS=1 GLOO_SOCKET_IFNAME=l26bv$n; exec nice -n 10 $V/python -m torch.distributed.run --nnodes 2 --nproc-per-node 1 --rdzv-backend c10d --rdzv-endpoint trn-b26-01:37426 --rdzv-id l26bjob $*"; }
