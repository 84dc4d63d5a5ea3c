#!/bin/bash
# DDP run with --keep-outputs: the script keeps every step's logits (2 MiB each) in a list,
# so memory grows by that much per step and rank (a leak in the script). The job runs in a memory cgroup
# (v1, limit 1.6 GiB for the whole job, no swap), as Slurm's task/cgroup would confine it;
# the kernel's cgroup OOM killer ends a worker.
CASE=cgroup_oom_leak; . "$(dirname "$0")/common.sh"
CG=/sys/fs/cgroup/memory/lab12b_oom; mkdir -p $CG; echo $((1600*1024*1024)) > $CG/memory.limit_in_bytes
echo $((1600*1024*1024)) > $CG/memory.memsw.limit_in_bytes 2>/dev/null
bash -c "echo \$\$ > $CG/cgroup.procs; exec $TITAN --parallel ddp --steps 3000 --log-freq 20 --keep-outputs" > out.log 2>&1
echo "rc=$?" > rc.txt; cat $CG/memory.oom_control > oom_control.txt; cat $CG/memory.max_usage_in_bytes >> oom_control.txt
rmdir $CG
