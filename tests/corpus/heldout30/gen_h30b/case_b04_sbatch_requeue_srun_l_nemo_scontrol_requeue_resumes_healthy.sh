#!/bin/bash
# sbatch -N2 --requeue --open-mode=append + srun --label, NeMo-style, checkpoints every 300 with --resume; after step
# 700 an operator runs 'scontrol requeue': the job restarts, resumes from the step-600 checkpoint and finishes.
# As run: the wait for 'global step 600:' never matched (srun --label split that line), the job ran to the end without
# a requeue and the case was stopped by hand; redone as b16.
CASE=b04; source /work/wt30b/tests/corpus/heldout30/gen_h30b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J nemo-ft -N 2 --ntasks-per-node=1 --mem=1200M --requeue --open-mode=append -o %x-%j.out
echo "[\$(date -u +%FT%TZ)] job \$SLURM_JOB_ID restart \${SLURM_RESTART_COUNT:-0} nodes \$SLURM_JOB_NODELIST"
srun --label nice -n 10 $V/python $T --master 127.0.0.1:41644 --style nemo --steps 1500 --log-every 50 --ckpt-dir $RUN/ck --ckpt-every 300 --resume
echo "[\$(date -u +%FT%TZ)] srun exited \$?"
EOS
sbrun; waitfor "global step 600:" nemo-ft-$J.out 400; sleep 4; scontrol requeue $J; log requeued
sleep 10; sbdone nemo-ft-$J.out
