#!/bin/bash
# NODE: sbatch job, 2 nodes x 1 task, `srun -l`, plain lines; after the step-250 checkpoint lab20n2 "loses power":
# its slurmd and the job's slurmstepd processes on it are SIGKILLed and its task SIGSTOPped (frozen, as a dead host's
# processes send nothing). slurmctld marks the node DOWN after SlurmdTimeout and ends the job.
CASE=sb_power; source "$(dirname "$0")/common.sh"
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J lm-mlp -N 2 --ntasks-per-node=1 --mem=1500M -w lab20n[1-2] -o slurm-%j.out
export OMP_NUM_THREADS=1
echo "[\$(date '+%F %T')] job \$SLURM_JOB_ID nodes \$SLURM_JOB_NODELIST"
srun -l $V/python $T20 --fmt plain --master 127.0.0.1:29623 --steps 3000 --log-every 50 --ckpt-every 250 --ckpt-dir $RUN/ckpt
EOS
J=$(sbatch --parsable job.sh); echo "job $J" >&2
waitfor "step_0000250.pt" slurm-$J.out 600
T=$(for p in $(pgrep -f "t20.py"); do tr '\0' '\n' < /proc/$p/environ | grep -qx "SLURMD_NODENAME=lab20n2" && tr '\0' '\n' < /proc/$p/environ | grep -qx "SLURM_JOB_ID=$J" && echo $p; done)
S=$(awk '{print $4}' /proc/$T/stat)   # the task's parent: lab20n2's slurmstepd for step $J.0
kill -STOP $T; kill -9 $(pgrep -f "slurmd -f .*lab20n2$") $S; echo "power loss $(date +%T) task $T stepd $S" >&2
# the job is requeued (JobRequeue=1) and pends: copy its output, then cancel it
waitfor "Node failure on lab20n2" slurm-$J.out 300; sleep 5; cp slurm-$J.out kept.log; scancel $J; sbwait $J; kill -9 $T 2>/dev/null
/usr/sbin/slurmd -f $SLURM_CONF -N lab20n2; sleep 3; scontrol update nodename=lab20n2 state=resume 2>/dev/null; true
