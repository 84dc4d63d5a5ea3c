#!/bin/bash
# sbatch -N2 --requeue --open-mode=append + srun --label, Python logging, checkpoints every 300, --resume; after step
# 700 an operator runs 'scontrol requeue': the job restarts, resumes from step 600 and finishes.
CASE=e08; source /work/wt28b/tests/corpus/heldout28/gen_h28b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J pylog-req -N 2 -w lab28n1,lab28n2 --ntasks-per-node=1 --mem=1500M --requeue --open-mode=append -o %x-%j.out
echo "[\$(date -u +%FT%TZ)] job \$SLURM_JOB_ID restart count \${SLURM_RESTART_COUNT:-0} on \$SLURM_JOB_NODELIST"
srun --label nice -n 10 $V/python $T --master 127.0.0.1:39650 --style pylog --steps 1500 --log-every 100 --ckpt-dir $RUN/ck --ckpt-every 300 --resume
echo "[\$(date -u +%FT%TZ)] srun exited \$?"
EOS
sbrun; waitfor "step 700/" pylog-req-$J.out 400; scontrol requeue $J; log requeue; sleep 10; sbdone pylog-req-$J.out
