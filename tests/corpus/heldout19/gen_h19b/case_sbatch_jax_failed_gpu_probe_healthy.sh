#!/bin/bash
# NONE: sbatch job, 2 nodes x 1 task, whose script first runs a GPU probe step (`srun nvidia-smi -L`, which fails:
# these nodes have no nvidia-smi) and a per-node scratch check, then trains JAX processes (loguru lines) to the end
# with checkpoints. Nothing is injected.
CASE=sb_healthy; source "$(dirname "$0")/common.sh"
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J jax-mlp-lm -N 2 --ntasks-per-node=1 --mem=1500M -o slurm-%j.out
export OMP_NUM_THREADS=1
echo "=== \$(date -Is) job \$SLURM_JOB_ID nodes \$SLURM_JOB_NODELIST"
srun -l nvidia-smi -L || echo "WARNING: GPU probe failed (rc=\$?), continuing on CPU"
srun -l bash -c 'echo "\$(hostname -s)/\$SLURMD_NODENAME scratch: \$(df -h /tmp | tail -1)"'
srun $V/python $G/j19.py --coord 127.0.0.1:29734 --steps 1500 --log-every 100 --ckpt-dir $RUN/ckpt --ckpt-every 500
echo "=== \$(date -Is) training step exited rc=\$?"
EOS
J=$(sbatch --parsable job.sh); echo "job $J" >&2
sleep 10; while squeue -h -j $J | grep -q .; do sleep 2; done
cp slurm-$J.out out.log; scontrol show job $J | grep -E "JobState|Reason" >&2
