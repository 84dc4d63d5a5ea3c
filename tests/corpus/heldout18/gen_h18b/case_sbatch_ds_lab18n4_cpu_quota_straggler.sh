#!/bin/bash
# STRAGGLER: sbatch job, srun -l 4 tasks on lab18n[1-4], DeepSpeed ZeRO-2 on the CPU accelerator (gloo), JSON-lines
# metrics (samples_per_sec, step_ms) from rank 0 every 25 steps. After the step-200 record, the task on lab18n4
# (SLURM_PROCID=3) is moved into a cgroup-v1 cpu group capped at 20% of one CPU (cfs_quota_us 20000 / period 100000),
# standing in for a throttled node, until the end.
CASE=ds_quota_straggler; source "$(dirname "$0")/common.sh"
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J ds-zero2-lm -N 4 -n 4 --mem=1500M -o slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29635 OMP_NUM_THREADS=1 DS_ACCELERATOR=cpu
srun -l $V/python $G/ds18.py --steps 700 --print-every 25
EOS
J=$(sbatch --parsable job.sh); echo "job $J" >&2
waitfor '"step": 200,' slurm-$J.out 600
P=$(envpids ds18.py SLURM_PROCID=3); echo "pid $P" >&2
CG=/sys/fs/cgroup/cpu/lab18b_slow; mkdir -p $CG; echo 100000 > $CG/cpu.cfs_period_us; echo 20000 > $CG/cpu.cfs_quota_us
for t in /proc/$P/task/*; do echo ${t##*/} > $CG/tasks; done
while squeue -h -j $J | grep -q .; do sleep 2; done
cp slurm-$J.out out.log; rmdir $CG
