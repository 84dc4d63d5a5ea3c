#!/bin/bash
# CRASH (node): sbatch job, 2 nodes x 1 task on lab21n[3-4], `srun -l` of t21.py HF-like dict lines; after step 200
# lab21n4's slurmd is SIGKILLed and left down (its slurmstepd and the task keep running: a node whose daemon died
# / stopped answering); slurmctld marks the node DOWN after SlurmdTimeout and ends the job. The job is submitted
# --no-requeue so it is not requeued; lab21n4's slurmd is restarted after.
CASE=sb_slurmd; source "$(dirname "$0")/common.sh"
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J tokmlp-nd -N 2 --ntasks-per-node=1 --mem=1500M -w lab21n[3-4] --no-requeue -o slurm-%j.out
export OMP_NUM_THREADS=1
echo "[\$(date '+%F %T')] job \$SLURM_JOB_ID nodes \$SLURM_JOB_NODELIST"
srun -l nice -n 10 $V/python $T21 --fmt hf --master 127.0.0.1:29719 --steps 900 --log-every 25 --ckpt-every 100 --ckpt-dir $RUN/ckpt
echo "[\$(date '+%F %T')] srun exit code \$?"
EOS
J=$(sbatch --parsable job.sh); echo "job $J" >&2
waitfor "checkpoint-200" slurm-$J.out 400
P=$(cat /work/lab21b/slurmd-lab21n4.pid); grep -q lab21n4 /proc/$P/cmdline && kill -9 $P; echo "slurmd lab21n4 ($P) killed $(date +%T)" >&2
sbwait $J
sinfo -N -h -o '%N %T %E' >&2
slurmd -f $SLURM_CONF -N lab21n4; sleep 5; scontrol update nodename=lab21n4 state=resume 2>/dev/null; sinfo -N -h -o '%N %T' >&2
