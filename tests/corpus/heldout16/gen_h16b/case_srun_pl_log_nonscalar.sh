#!/bin/bash
# APPLICATION: Lightning DDP job (sbatch, srun -l, 2 nodes); at global step 30 the LightningModule calls self.log with a
# per-sample loss tensor (16 elements) instead of a scalar.
CASE=srun_pl_nonscalar; source "$(dirname "$0")/common.sh"
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J lm-pl -N 2 --ntasks-per-node=1 -o $RUN/slurm-%j.out
export OMP_NUM_THREADS=1
srun -l $V/python $G/pl16.py --nodes 2 --steps 300 --refresh 10 --logger csv --bad-log-at 30
EOS
J=$(sbatch --parsable job.sh)
sleep 10; for i in $(seq 1 150); do squeue -h -j $J | grep -q . || break; sleep 1; done
cp slurm-$J.out out.log; echo "job $J" >&2
