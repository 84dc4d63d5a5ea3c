#!/bin/bash
# UNKNOWN: sbatch job, 2 nodes x 1 task, Python logging lines; after step 300 the task on lab20n2 gets SIGKILL from
# outside (no OOM, no message): srun reports the task Killed and ends the step.
CASE=sb_kill; source "$(dirname "$0")/common.sh"
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J lm-mlp -N 2 --ntasks-per-node=1 --mem=1500M -w lab20n[1-2] -o slurm-%j.out
export OMP_NUM_THREADS=1
srun $V/python $T20 --master 127.0.0.1:29625 --steps 2000 --log-every 50 --ckpt-every 200 --ckpt-dir $RUN/ckpt
echo "srun exit code \$?"
EOS
J=$(sbatch --parsable job.sh); echo "job $J" >&2
waitfor "step 300/" slurm-$J.out 600
T=$(for p in $(pgrep -f "t20.py"); do tr '\0' '\n' < /proc/$p/environ | grep -qx "SLURMD_NODENAME=lab20n2" && tr '\0' '\n' < /proc/$p/environ | grep -qx "SLURM_JOB_ID=$J" && echo $p; done)
kill -9 $T; echo "killed $T $(date +%T)" >&2
sbwait $J
