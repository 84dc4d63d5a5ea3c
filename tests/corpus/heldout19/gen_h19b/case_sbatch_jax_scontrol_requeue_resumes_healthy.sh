#!/bin/bash
# NONE: sbatch job (--open-mode=append), 2 nodes x 1 task, JAX processes (loguru lines) with --resume, checkpoint every
# 300 steps. After the step-600 checkpoint an operator runs `scontrol requeue` on the job (a real requeue: Slurm
# kills the running job and puts it back in the queue); the job starts again, resumes from its last checkpoint
# and trains to the end. Nothing else is injected.
CASE=sb_requeue; source "$(dirname "$0")/common.sh"
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J jax-mlp-lm -N 2 -w lab19n[1-2] --ntasks-per-node=1 --mem=1500M -o slurm-%j.out --open-mode=append
export OMP_NUM_THREADS=1
echo "=== \$(date -Is) job \$SLURM_JOB_ID restart_count=\${SLURM_RESTART_COUNT:-0} nodes \$SLURM_JOB_NODELIST"
srun $V/python $G/j19.py --coord 127.0.0.1:29737 --steps 1500 --log-every 100 --ckpt-dir $RUN/ckpt --ckpt-every 300 --resume
echo "=== \$(date -Is) training step exited rc=\$?"
EOS
J=$(sbatch --parsable job.sh); echo "job $J" >&2
for i in $(seq 1 400); do ls ckpt/ckpt_000600.npz >/dev/null 2>&1 && break; sleep 1; done; sleep 5
scontrol requeue $J; echo "requeued $(date +%T)" >&2
sleep 10; while squeue -h -j $J | grep -q .; do sleep 2; done
cp slurm-$J.out out.log; scontrol show job $J | grep -E "JobState|Reason|Restarts" >&2
