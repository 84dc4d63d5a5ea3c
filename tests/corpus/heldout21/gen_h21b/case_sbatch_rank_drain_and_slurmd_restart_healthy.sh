#!/bin/bash
# NONE: sbatch job, 2 nodes x 1 task, srun of t21.py per-rank `[rank r/w host]` lines with 3 DataLoader workers per
# rank (more than the 2 CPUs: DataLoader's worker-count UserWarning) and the deprecated torch.cuda.amp wrappers
# (FutureWarnings); mid-run an admin drains lab21n2 (`scontrol update state=drain`, the job keeps running on it)
# and lab21n1's slurmd is killed and restarted under the running job. The job finishes; the node is resumed after.
CASE=sb_drain; source "$(dirname "$0")/common.sh"
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J tokmlp-base -N 2 --ntasks-per-node=1 --mem=2500M -w lab21n[1-2] -o slurm-%j.out
export OMP_NUM_THREADS=1
srun nice -n 10 $V/python $T21 --fmt rank --master 127.0.0.1:29714 --steps 700 --log-every 25 --workers 3 \
  --legacy-amp --ckpt-every 200 --ckpt-dir $RUN/ckpt
echo "srun finished with exit code \$?"
EOS
J=$(sbatch --parsable job.sh); echo "job $J" >&2
waitfor "step 200/" slurm-$J.out 400
scontrol update nodename=lab21n2 state=drain reason="ipmi fan alarm, drain for check"; echo "drained $(date +%T)" >&2
sleep 20
P=$(cat /work/lab21b/slurmd-lab21n1.pid); grep -q lab21n1 /proc/$P/cmdline && kill $P; sleep 3
slurmd -f $SLURM_CONF -N lab21n1; echo "slurmd lab21n1 restarted $(date +%T)" >&2
sbwait $J
sinfo -N >&2
scontrol update nodename=lab21n2 state=resume
