#!/bin/bash
# HANG: sbatch job, 2 nodes x 1 task, --time=3, Python logging lines, default 30 min pg timeout; after step 200 the
# task on lab20n3 is SIGSTOPped (frozen) and never resumed, so the job makes no progress until the time limit ends it.
CASE=sb_frozen_tl; source "$(dirname "$0")/common.sh"
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J lm-mlp -N 2 --ntasks-per-node=1 --mem=1500M --time=3 -w lab20n[3-4] -o slurm-%j.out
export OMP_NUM_THREADS=1
srun $V/python $T20 --master 127.0.0.1:29630 --steps 5000 --log-every 50 --ckpt-every 100 --ckpt-dir $RUN/ckpt
EOS
J=$(sbatch --parsable job.sh); echo "job $J" >&2
waitfor "step 200/" slurm-$J.out 600
T=$(for p in $(pgrep -f "t20.py"); do tr '\0' '\n' < /proc/$p/environ | grep -qx "SLURMD_NODENAME=lab20n3" && tr '\0' '\n' < /proc/$p/environ | grep -qx "SLURM_JOB_ID=$J" && echo $p; done)
kill -STOP $T; echo "stopped $T $(date +%T)" >&2
sbwait $J
