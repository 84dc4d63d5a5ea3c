#!/bin/bash
# sbatch -N2 --time=2 --signal=USR1@40 --requeue --open-mode=append + srun --label, fastai-style; a SIGUSR1 handler
# saves a checkpoint and runs 'scontrol requeue' on its own job; the requeued job resumes and completes.
CASE=b08; source /work/wt31b/tests/corpus/heldout31/gen_h31b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J fai-mlp -N 2 --ntasks-per-node=1 --mem=1200M --time=2 --signal=USR1@40 --requeue --open-mode=append -o %x-%j.out
echo "[\$(date -u +%FT%TZ)] job \$SLURM_JOB_ID restart \${SLURM_RESTART_COUNT:-0} on \$SLURM_JOB_NODELIST"
srun --label nice -n 10 $V/python $T --master 127.0.0.1:42649 --style fastai --steps 9000 --epoch-steps 600 --log-every 100 --eval-every 1 --ckpt-dir $RUN/models --ckpt-every 600 --usr1-requeue --resume
echo "[\$(date -u +%FT%TZ)] srun exited \$?"
EOS
sbrun; sleep 60; sbdone fai-mlp-$J.out
