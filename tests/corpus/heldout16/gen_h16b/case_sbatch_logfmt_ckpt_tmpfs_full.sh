#!/bin/bash
# STORAGE: t16.py (custom logging format) under sbatch/srun -l on the local 2-node Slurm cluster; checkpoints every
# 150 steps into a directory on an 8 MiB tmpfs (standing in for a nearly full checkpoint filesystem); each checkpoint
# is ~3 MiB and none is deleted, so the third torch.save runs out of space.
CASE=sbatch_ckpt_full; source "$(dirname "$0")/common.sh"
mkdir -p ckpt; mount -t tmpfs -o size=8m tmpfs ckpt
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J lm-logfmt -N 2 --ntasks-per-node=1 -o $RUN/slurm-%j.out
export OMP_NUM_THREADS=1 MASTER_ADDR=gpu-node01 MASTER_PORT=29571
srun -l $V/python -u $G/t16.py --fmt logfmt --steps 1000 --log-every 50 --hidden 128 --ckpt-dir $RUN/ckpt --ckpt-every 150
EOS
J=$(sbatch --parsable job.sh)
sleep 10; for i in $(seq 1 200); do squeue -h -j $J | grep -q . || break; sleep 1; done
cp slurm-$J.out out.log; echo "job $J" >&2; df -h ckpt >&2
umount ckpt
