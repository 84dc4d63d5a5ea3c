#!/bin/bash
# HANG: sbatch job, 2 nodes x 1 task, srun -K (kill on bad exit) of t21.py JSON lines with a 60 s process-group
# timeout; after each checkpoint every rank starts a background "upload" thread that takes state_lock then
# metrics_lock, while the main loop's logging takes metrics_lock then state_lock (a lock-order bug). On rank 1
# (lab21n2) the uploader holds its lock 6 s (--upload-slow-rank 1), so at the next logging step its main thread
# and uploader deadlock in Python (no collective is called on rank 1); rank 0 then waits in all_gather until
# the gloo timeout. Nothing else is injected.
CASE=sb_deadlock; source "$(dirname "$0")/common.sh"
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J tokmlp-upl -N 2 --ntasks-per-node=1 --mem=1500M -w lab21n[1-2] -o slurm-%j.out
export OMP_NUM_THREADS=1
srun -K nice -n 10 $V/python $T21 --fmt json --master 127.0.0.1:29713 --steps 800 --log-every 10 --pg-timeout 60 \
  --ckpt-every 150 --ckpt-dir $RUN/ckpt --upload-after-ckpt --upload-slow-rank 1
EOS
J=$(sbatch --parsable job.sh); echo "job $J" >&2
sbwait $J
