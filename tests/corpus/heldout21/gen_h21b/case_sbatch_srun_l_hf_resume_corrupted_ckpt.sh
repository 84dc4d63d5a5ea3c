#!/bin/bash
# CRASH (checkpoint file damaged): a first sbatch job (not kept) trains 200 steps and saves checkpoints 100 and
# 200; then 2 MiB in the middle of checkpoint-200.pt are overwritten with zeros (dd conv=notrunc, standing in for
# a bad write or a damaged block on the checkpoint filesystem); the kept job, `srun -l` of t21.py HF-like lines
# with --resume, fails in torch.load on both ranks.
CASE=sb_corrupt; source "$(dirname "$0")/common.sh"
mk() { cat > job$1.sh <<EOS
#!/bin/bash
#SBATCH -J tokmlp-ft -N 2 --ntasks-per-node=1 --mem=2000M -w lab21n[3-4] -o slurm-%j.out
export OMP_NUM_THREADS=1
echo "[\$(date '+%F %T')] job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST, resume from $RUN/ckpt"
srun -l nice -n 10 $V/python $T21 --fmt hf --master 127.0.0.1:29717 --steps $2 --log-every 25 --ckpt-every 100 \
  --ckpt-dir $RUN/ckpt --resume
echo "[\$(date '+%F %T')] srun exit code \$?"
EOS
}
mk 1 200; J1=$(sbatch --parsable job1.sh); echo "first job $J1" >&2; sbwait $J1; mv out.log first.log
dd if=/dev/zero of=$RUN/ckpt/checkpoint-200.pt bs=1M seek=30 count=2 conv=notrunc
mk 2 800; J=$(sbatch --parsable job2.sh); echo "job $J" >&2; sbwait $J
