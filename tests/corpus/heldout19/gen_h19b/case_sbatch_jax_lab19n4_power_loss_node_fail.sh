#!/bin/bash
# NODE: sbatch job, 2 nodes x 1 task on lab19n[3-4] (-w), JAX processes (structlog JSON lines, heartbeat timeout 100 s)
# under srun -l. After step 500, lab19n4 "loses power": its slurmd and slurmstepd are SIGKILLed and its task is
# SIGSTOPped (frozen, no sockets closed). slurmctld marks the node DOWN after SlurmdTimeout=20 s and kills the job.
CASE=sb_nodefail2; source "$(dirname "$0")/common.sh"
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J jax-mlp-lm -N 2 -w lab19n[3-4] --ntasks-per-node=1 --mem=1500M -o slurm-%j.out
export OMP_NUM_THREADS=1
srun -l $V/python $G/j19.py --fmt json --coord 127.0.0.1:29735 --steps 5000 --log-every 100 --ckpt-dir $RUN/ckpt --ckpt-every 250
EOS
J=$(sbatch --parsable job.sh); echo "job $J" >&2
waitfor '"step": 500, "loss"' slurm-$J.out 600
SD=$(pgrep -f "slurmd -N lab19n4")
T=$(for p in $(pgrep -f "29735"); do tr '\0' '\n' < /proc/$p/environ 2>/dev/null | grep -qx SLURMD_NODENAME=lab19n4 && echo $p; done)
# the stepd of lab19n4: the slurmstepd that is the parent of lab19n4's task
STD=$(for t in $T; do awk '{print $4}' /proc/$t/stat; done | sort -u)
echo "slurmd $SD stepd $STD task $T $(date +%T)" >&2
kill -STOP $T; kill -9 $SD $STD
sleep 5; while squeue -h -j $J -t R | grep -q .; do sleep 2; done; sleep 5
cp slurm-$J.out out.log; scontrol show job $J | grep -E "JobState|Reason" >&2
kill -9 $T; scancel $J 2>/dev/null
/usr/sbin/slurmd -N lab19n4; sleep 5; sinfo -N -n lab19n4 >&2
