#!/bin/bash
# NONE: sbatch job, 2 nodes x 1 task, `srun -l` of t21.py JSON lines; after step 200 an admin suspends the job
# (`scontrol suspend`: every task SIGSTOPped) for 45 s and resumes it (`scontrol resume`); training continues and
# finishes. Nothing else is injected.
CASE=sb_susp; source "$(dirname "$0")/common.sh"
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J tokmlp-s -N 2 --ntasks-per-node=1 --mem=1500M -w lab21n[1-2] -o slurm-%j.out
export OMP_NUM_THREADS=1
srun -l nice -n 10 $V/python $T21 --fmt json --master 127.0.0.1:29720 --steps 500 --log-every 25 --ckpt-every 250 --ckpt-dir $RUN/ckpt
echo "srun exit code \$?"
EOS
J=$(sbatch --parsable job.sh); echo "job $J" >&2
waitfor '"step": 200,' slurm-$J.out 400
scontrol suspend $J; echo "suspended $(date +%T)" >&2; sleep 45; scontrol resume $J; echo "resumed $(date +%T)" >&2
sbwait $J
