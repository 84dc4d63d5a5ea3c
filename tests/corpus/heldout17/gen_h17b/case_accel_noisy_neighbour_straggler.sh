#!/bin/bash
# STRAGGLER: torchrun, 2 processes, Accelerate custom loop (samples/s, tokens/s every 25 steps), 700 steps. After the
# step-200 line, rank 1 is moved into a cgroup-v1 cpu group limited to one CPU (cfs quota 100000/100000) together with
# a CPU hog (sha256sum /dev/zero) at nice 0, while the rank runs at nice 10 (torchrun under nice): a noisy neighbour
# that takes most of that CPU for the rest of the run.
CASE=accel_noisy_neighbour; source "$(dirname "$0")/common.sh"
$TR $G/a17.py --steps 700 --log-every 25 > out.log 2>&1 & L=$!
waitfor "step 200/" out.log 400; P=$(envpids "a17.py --steps 700" RANK=1)
CG=/sys/fs/cgroup/cpu/lab17b_nb; mkdir -p $CG; echo 100000 > $CG/cpu.cfs_period_us; echo 100000 > $CG/cpu.cfs_quota_us
for t in /proc/$P/task/*; do echo ${t##*/} > $CG/tasks; done
nice -n 0 sha256sum /dev/zero & H=$!; echo $H > $CG/tasks
wait $L; echo "exit=$?" >&2
kill $H; sleep 1; rmdir $CG
