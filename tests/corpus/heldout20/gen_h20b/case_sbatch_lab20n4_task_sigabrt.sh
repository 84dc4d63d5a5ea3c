#!/bin/bash
# UNKNOWN: sbatch job, 2 nodes x 1 task, `srun -l`, plain lines; after step 250 the task on lab20n4 gets SIGABRT from
# outside (standing in for an abort() inside a native library; no message of its own).
CASE=sb_abrt; source "$(dirname "$0")/common.sh"
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J lm-mlp -N 2 --ntasks-per-node=1 --mem=1500M -w lab20n[3-4] -o slurm-%j.out
export OMP_NUM_THREADS=1
echo "[\$(date '+%F %T')] job \$SLURM_JOB_ID nodes \$SLURM_JOB_NODELIST"
srun -l $V/python $T20 --fmt plain --master 127.0.0.1:29629 --steps 2000 --log-every 50 --ckpt-every 250 --ckpt-dir $RUN/ckpt
EOS
J=$(sbatch --parsable job.sh); echo "job $J" >&2
waitfor "step_0000250.pt" slurm-$J.out 600
T=$(for p in $(pgrep -f "t20.py"); do tr '\0' '\n' < /proc/$p/environ | grep -qx "SLURMD_NODENAME=lab20n4" && tr '\0' '\n' < /proc/$p/environ | grep -qx "SLURM_JOB_ID=$J" && echo $p; done)
kill -ABRT $T; echo "abrt $T $(date +%T)" >&2
sbwait $J
