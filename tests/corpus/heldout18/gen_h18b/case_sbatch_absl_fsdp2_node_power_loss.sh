#!/bin/bash
# NODE: sbatch job, srun -l 4 tasks on lab18n[1-4], FSDP2 on gloo, absl-style log lines, DCP checkpoint every 100 steps.
# After the step-200 line, node lab18n3 "loses power": its slurmd and the job's slurmstepd on it are SIGKILLed and the
# training task on it is SIGSTOPped (a powered-off host sends no FIN/RST, its peers just stop hearing from it).
# slurmctld (SlurmdTimeout=20) marks the node DOWN and ends the job; afterwards the task is killed and slurmd restarted.
# In the kept run slurmctld requeued the batch job after the node failure (Reason=BeginTime); it was scancelled by hand
# while pending (`scancel 4`), which ended the wait loop below, and lab18n3 returned to idle when its slurmd restarted.
CASE=node_power_loss; source "$(dirname "$0")/common.sh"
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J t5x-lm -N 4 -n 4 --mem=1000M -o slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29633 OMP_NUM_THREADS=1
srun -l $V/python $G/t18.py --fsdp --fmt absl --steps 800 --log-every 20 --ckpt-dir $RUN/ckpt --ckpt-every 100
EOS
J=$(sbatch --parsable job.sh); echo "job $J" >&2
waitfor "\[200\] train/loss" slurm-$J.out 600
P=$(envpids "t18.py --fsdp --fmt absl" SLURM_PROCID=2); S=$(awk '{print $4}' /proc/$P/stat); D=$(cat /work/lab18b/slurm/slurmd-lab18n3.pid)
echo "task $P stepd $S slurmd $D" >&2
kill -STOP $P; kill -KILL $S $D
while squeue -h -j $J | grep -q .; do sleep 2; done
kill -KILL $P 2>/dev/null; sleep 1; /usr/sbin/slurmd -f $SLURM_CONF -N lab18n3
cp slurm-$J.out out.log; scontrol show job $J | grep -E "JobState|Reason" >&2; sinfo >&2
