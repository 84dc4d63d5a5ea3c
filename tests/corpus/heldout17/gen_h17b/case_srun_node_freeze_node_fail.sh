#!/bin/bash
# NODE: sbatch job, srun -l 4 tasks on lab17n[1-4] (per-rank table). After the step-150 table, node lab17n3 "freezes":
# its slurmd, the job's slurmstepd on it and the task on it are all sent SIGSTOP, so the node stops answering
# slurmctld (SlurmdTimeout=20). slurmctld marks it DOWN and ends the job; afterwards the stopped processes are
# resumed (SIGCONT) and the task killed, and slurmd comes back (ReturnToService=2).
CASE=srun_node_freeze; source "$(dirname "$0")/common.sh"
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J lm-pretrain -N 4 -n 4 --mem=800M -o slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29618 OMP_NUM_THREADS=1
srun -l $V/python $G/t17.py --fmt table --steps 600 --log-every 50 --hidden 128
EOS
J=$(sbatch --parsable job.sh); echo "job $J" >&2
waitfor "step 150/" slurm-$J.out 300
P=$(envpids t17.py SLURM_PROCID=2); S=$(awk '{print $4}' /proc/$P/stat); D=$(cat /work/lab17b/slurm/slurmd-lab17n3.pid)
echo "task $P stepd $S slurmd $D" >&2
kill -STOP $D $S $P
while squeue -h -j $J | grep -q .; do sleep 2; done
kill -CONT $D $S $P; kill -KILL $P 2>/dev/null
cp slurm-$J.out out.log; sacct -j $J 2>/dev/null; scontrol show job $J | grep -E "JobState|Reason" >&2
