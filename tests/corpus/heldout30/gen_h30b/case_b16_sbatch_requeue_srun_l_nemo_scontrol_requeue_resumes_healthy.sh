#!/bin/bash
# (b04 redone) sbatch -N2 --requeue --open-mode=append + srun --label, NeMo-style, checkpoints every 300 with --resume;
# once the step-600 checkpoint exists an operator runs 'scontrol requeue': the job restarts, resumes and finishes.
CASE=b16; source /work/wt30b/tests/corpus/heldout30/gen_h30b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J nemo-rq -N 2 --ntasks-per-node=1 --mem=1200M --requeue --open-mode=append -o %x-%j.out
echo "[\$(date -u +%FT%TZ)] job \$SLURM_JOB_ID restart \${SLURM_RESTART_COUNT:-0} nodes \$SLURM_JOB_NODELIST"
srun --label nice -n 10 $V/python $T --master 127.0.0.1:41666 --style nemo --steps 1500 --log-every 50 --ckpt-dir $RUN/ck --ckpt-every 300 --resume
echo "[\$(date -u +%FT%TZ)] srun exited \$?"
EOS
sbrun; for i in $(seq 1 400); do [ -e ck/step_600/trainer_state.json ] && break; sleep 1; done; sleep 4; scontrol requeue $J; log requeued
sleep 10; sbdone nemo-rq-$J.out
