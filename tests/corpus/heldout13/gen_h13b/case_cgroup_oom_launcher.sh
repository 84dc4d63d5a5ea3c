#!/bin/bash
# NODE: srun-style launch in which rank 1 runs in a memory cgroup (v1) limited to 600 MiB, as a
# job step's cgroup; rank 1 keeps every batch (+1 MiB) in a replay cache, grows, and is killed by the
# kernel OOM killer. Like slurmstepd, the launcher reads the cgroup's oom_kill count after the tasks
# end and reports it.
CASE=cgroup_oom_launcher; . "$(dirname "$0")/common.sh"
CG=/sys/fs/cgroup/memory/lab13b_step0_task1; rmdir $CG 2>/dev/null; mkdir $CG
echo $((600*1024*1024)) > $CG/memory.limit_in_bytes
for r in 0 1; do
  ( [ $r = 1 ] && echo $BASHPID > $CG/cgroup.procs
    MASTER_ADDR=127.0.0.1 MASTER_PORT=29671 RANK=$r LOCAL_RANK=$r WORLD_SIZE=2 exec nice -n 10 $V/python -u \
    $G/lm13.py --steps 900 --log-every 25 --cache-batches --timeout 60 >> out.log 2>&1 ) & eval P$r=$!
done
wait $P1; S1=$?; wait $P0; S0=$?
for r in 0 1; do eval s=\$S$r; [ $s != 0 ] && echo "launcher: error: task $r exited with exit code $s" >> out.log; done
N=$(awk '/oom_kill /{print $2}' $CG/memory.oom_control)
[ "${N:-0}" -gt 0 ] && echo "launcher: error: Detected $N oom_kill event(s) in memory cgroup lab13b_step0_task1 (task 1, limit 600M). Some of the step tasks have been OOM Killed." >> out.log
echo "done" > rc.txt; rmdir $CG
