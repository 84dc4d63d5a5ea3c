# sourced by the 2-host cases: two network namespaces l23bh1/l23bh2 (UTS host names cn-b23-01/cn-b23-02 via unshare),
# 10.223.7.11/12 on a veth pair l23bv1/l23bv2; both names in each namespace's /etc/netns/<ns>/hosts.
netup() {
  for n in 1 2; do ip netns add l23bh$n; mkdir -p /etc/netns/l23bh$n
    printf '127.0.0.1 localhost\n10.223.7.11 cn-b23-01\n10.223.7.12 cn-b23-02\n' > /etc/netns/l23bh$n/hosts; done
  ip link add l23bv1 type veth peer name l23bv2
  ip link set l23bv1 netns l23bh1; ip link set l23bv2 netns l23bh2
  ip -n l23bh1 addr add 10.223.7.11/24 dev l23bv1; ip -n l23bh2 addr add 10.223.7.12/24 dev l23bv2
  for n in 1 2; do ip -n l23bh$n link set lo up; ip -n l23bh$n link set l23bv$n up; done
}
netdown() { ip netns del l23bh1 2>/dev/null; ip netns del l23bh2 2>/dev/null; rm -rf /etc/netns/l23bh1 /etc/netns/l23bh2; }
# TR2 N args...: torchrun on host N (2 nodes x 1 proc, c10d rendezvous at cn-b23-01:29423), as host cn-b23-0N,
# with torchrun's own --tee 3 per-rank line prefixes ([default0]:)
TR2() { local n=$1; shift
  ip netns exec l23bh$n unshare --uts bash -c "hostname cn-b23-0$n; cd $RUN; export OMP_NUM_THREADS=1 GLOO_SOCKET_IFNAME=l23bv$n; exec nice -n 10 $V/python -m torch.distributed.run --nnodes 2 --nproc-per-node 1 --rdzv-backend c10d --rdzv-endpoint cn-b23-01:29423 --rdzv-id l23bjob --tee 3 --log-dir $RUN/tlogs_h$n $*"; }
