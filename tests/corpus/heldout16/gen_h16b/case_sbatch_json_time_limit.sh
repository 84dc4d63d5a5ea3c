#!/bin/bash
# SCHEDULER: t16.py with JSON-lines logging under sbatch --time=1 on the local 2-node Slurm cluster (srun -l, one task
# per node, SIGTERM checkpoint handler on). The job runs past its 1-minute limit: Slurm cancels it (SIGTERM, then
# SIGKILL after KillWait=15 s); the handler saves a checkpoint and exits.
CASE=sbatch_time_limit; source "$(dirname "$0")/common.sh"
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J lm-json -N 2 --ntasks-per-node=1 --time=1 -o $RUN/slurm-%j.out
export OMP_NUM_THREADS=1 MASTER_ADDR=gpu-node01 MASTER_PORT=29561
srun -l $V/python -u $G/t16.py --fmt json --steps 100000 --log-every 100 --hidden 128 --ckpt-dir $RUN/ckpt --ckpt-every 500 --sigterm-ckpt
EOS
J=$(sbatch --parsable job.sh)
sleep 20; for i in $(seq 1 150); do squeue -h -j $J | grep -q . || break; sleep 1; done
cp slurm-$J.out out.log; echo "job $J" >&2
