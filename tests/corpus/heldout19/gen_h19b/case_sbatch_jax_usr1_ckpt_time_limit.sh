#!/bin/bash
# SCHEDULER: sbatch job, 2 nodes x 1 task (lab19n1-2), JAX processes (structlog JSON lines) under srun, --time=3
# with --signal=USR1@70: the tasks get SIGUSR1 70 s before the limit, save a checkpoint and go on; at the limit
# slurmstepd kills the job. Nothing is injected: the time limit is real.
CASE=sb_usr1; source "$(dirname "$0")/common.sh"
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J jax-mlp-lm -N 2 --ntasks-per-node=1 --mem=1500M --time=3 --signal=USR1@70 -o slurm-%j.out
export OMP_NUM_THREADS=1
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST start \$(date -Is)"
srun $V/python $G/j19.py --fmt json --coord 127.0.0.1:29731 --steps 20000 --log-every 100 --usr1-ckpt --ckpt-dir $RUN/ckpt --ckpt-every 1000
EOS
J=$(sbatch --parsable job.sh); echo "job $J" >&2
sleep 10; while squeue -h -j $J | grep -q .; do sleep 2; done
cp slurm-$J.out out.log; scontrol show job $J | grep -E "JobState|Reason" >&2
