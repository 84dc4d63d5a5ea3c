#!/bin/bash
# CRASH (program): sbatch job, 2 nodes x 1 task, `srun -l` of t21.py JSON lines with
# torch.autograd.set_detect_anomaly(True); the logit temperature is annealed by 0.004 per step with --temp-min 0
# (a configuration slip: the floor should be positive), so from step 250 the logits are divided by 0 and the
# backward pass returns NaN; anomaly mode raises in both ranks. Nothing is injected from outside.
CASE=sb_nan; source "$(dirname "$0")/common.sh"
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J tokmlp-temp -N 2 --ntasks-per-node=1 --mem=1500M -w lab21n[3-4] -o slurm-%j.out
export OMP_NUM_THREADS=1
srun -l nice -n 10 $V/python $T21 --fmt json --master 127.0.0.1:29712 --steps 800 --log-every 25 \
  --temp-start 1.0 --temp-decay 0.004 --temp-min 0 --anomaly --ckpt-every 100 --ckpt-dir $RUN/ckpt
EOS
J=$(sbatch --parsable job.sh); echo "job $J" >&2
sbwait $J
