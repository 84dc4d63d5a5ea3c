#!/bin/bash
# NONE: Lightning DDP job (sbatch, srun -l, 2 nodes), TensorBoard logger, ModelCheckpoint every 100 steps, TQDM bar;
# nothing injected (noise: a deprecation warning, the SLURM
# auto-requeue message).
CASE=sbatch_pl_healthy; source "$(dirname "$0")/common.sh"
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J lm-pl -N 2 --ntasks-per-node=1 -o $RUN/slurm-%j.out
export OMP_NUM_THREADS=1
srun -l $V/python $G/pl16.py --nodes 2 --steps 300 --refresh 50 --logger tb --ckpt-dir $RUN/ckpt --ckpt-every 100
EOS
J=$(sbatch --parsable job.sh)
sleep 10; for i in $(seq 1 150); do squeue -h -j $J | grep -q . || break; sleep 1; done
cp slurm-$J.out out.log; echo "job $J" >&2; ls ckpt >&2
