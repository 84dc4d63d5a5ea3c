#!/bin/bash
# SCHEDULER: sbatch job in partition `batch` (PriorityTier=1, PreemptMode=REQUEUE, GraceTime=30), srun 2 tasks on
# lab19n[1-2], JAX processes with structlog JSON lines, checkpoint every 300 steps. After the step-600 checkpoint a
# job in partition `urgent` (PriorityTier=10) asks for all four nodes --exclusive; slurmctld (preempt/partition_prio)
# preempts the training job (SIGTERM, grace, kill) and requeues it. The output is copied once the job has left
# RUNNING (before it could start again), then the requeued job is cancelled.
CASE=sb_preempt; source "$(dirname "$0")/common.sh"
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J jax-mlp-lm -p batch -N 2 --ntasks-per-node=1 --mem=1500M -o slurm-%j.out --open-mode=append
export OMP_NUM_THREADS=1
echo "job \$SLURM_JOB_ID restart_count=\${SLURM_RESTART_COUNT:-0} nodes=\$SLURM_JOB_NODELIST"
srun $V/python $G/j19.py --fmt json --coord 127.0.0.1:29733 --steps 6000 --log-every 100 --ckpt-dir $RUN/ckpt --ckpt-every 300 --resume
EOS
J=$(sbatch --parsable job.sh); echo "job $J" >&2
for i in $(seq 1 400); do ls ckpt/ckpt_000600.npz >/dev/null 2>&1 && break; sleep 1; done; sleep 10
U=$(sbatch --parsable -J eval-urgent -p urgent -N 4 --exclusive -o urgent-%j.out --wrap "hostname; sleep 90"); echo "urgent $U $(date +%T)" >&2
for i in $(seq 1 200); do squeue -h -j $J -o %T | grep -q RUNNING || break; sleep 1; done
sleep 3; cp slurm-$J.out out.log; scontrol show job $J | grep -E "JobState|Reason|Restarts" >&2
scancel $J; echo "cancelled $J $(date +%T)" >&2
