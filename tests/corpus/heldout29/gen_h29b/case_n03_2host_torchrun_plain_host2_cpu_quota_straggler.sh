#!/bin/bash
# two namespace hosts, torchrun --nnodes 2, plain prints from rank 0;
# after step 600 every process of gpu-b29-02 (agent and worker) goes into a cgroup-v1 cpu group with a 10% CFS quota.
CASE=n03; PORT=40683; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh; source $G/net29.sh; netdown; netup
(TR2 1 $T --style plain --steps 1500 --log-every 50 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style plain --steps 1500 --log-every 50 >> out.log 2>&1 &)
waitfor "step 600/" out.log 400; C=/sys/fs/cgroup/cpu/l29b_n03; mkdir -p $C; echo 100000 > $C/cpu.cfs_period_us; echo 10000 > $C/cpu.cfs_quota_us
for p in $(envpids GLOO_SOCKET_IFNAME=l29bv2) $(for q in $(agentpids); do tr '\0' '\n' < /proc/$q/environ | grep -qx GLOO_SOCKET_IFNAME=l29bv2 && echo $q; done); do for t in $(ls /proc/$p/task); do echo $t > $C/tasks; done; done; log quota
waitgone 540; sleep 3; rmdir $C; netdown
