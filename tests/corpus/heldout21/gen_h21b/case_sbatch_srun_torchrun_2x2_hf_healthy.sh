#!/bin/bash
# NONE: sbatch job, 2 nodes x 1 task, each task runs torchrun (--nnodes 2 --nproc-per-node 2, c10d rendezvous on the
# first node's address) of t21.py HF-like dict lines + tqdm bar: 4 ranks; torchrun's OMP_NUM_THREADS notice and the
# usual start-up noise; nothing injected; the run finishes.
CASE=sb_tr22; source "$(dirname "$0")/common.sh"
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J tokmlp-22 -N 2 --ntasks-per-node=1 --cpus-per-task=2 --mem=3000M -w lab21n[3-4] -o slurm-%j.out
unset OMP_NUM_THREADS
echo "[\$(date '+%F %T')] job \$SLURM_JOB_ID nodes \$SLURM_JOB_NODELIST, rendezvous 127.0.0.1:29722"
srun nice -n 10 $V/python -m torch.distributed.run --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d \
  --rdzv-endpoint 127.0.0.1:29722 --rdzv-id tok22-\$SLURM_JOB_ID $T21 --fmt hf --steps 300 --log-every 25 --batch 32 \
  --ckpt-every 150 --ckpt-dir $RUN/ckpt
echo "[\$(date '+%F %T')] done"
EOS
J=$(sbatch --parsable job.sh); echo "job $J" >&2
sbwait $J
