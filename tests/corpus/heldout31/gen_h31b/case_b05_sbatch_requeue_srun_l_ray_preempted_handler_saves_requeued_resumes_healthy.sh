#!/bin/bash
# sbatch -N2 -w lab31n3,lab31n4 --requeue --open-mode=append + srun --label, Ray-Train-worker style, SIGTERM handler
# that saves a checkpoint, --resume; after step 2500 a job in partition urgent on the same nodes preempts it
# (PreemptMode=REQUEUE, GraceTime 15): meant to be saved by the handler, requeued, restarted and resumed. As run: the
# handler saved and exited 0 within the grace time, the batch script ended and Slurm recorded the job COMPLETED
# (no requeue) at step 2568 of 6000.
CASE=b05; source /work/wt31b/tests/corpus/heldout31/gen_h31b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J ray-mlp -N 2 -w lab31n3,lab31n4 --ntasks-per-node=1 --mem=1200M --requeue --open-mode=append -o %x-%j.out
echo "[\$(date -u +%FT%TZ)] job \$SLURM_JOB_ID restart \${SLURM_RESTART_COUNT:-0} on \$SLURM_JOB_NODELIST"
srun --label nice -n 10 $V/python $T --master 127.0.0.1:42645 --style ray --steps 6000 --log-every 100 --eval-every 1000 --ckpt-dir $RUN/ray_results/checkpoints --ckpt-every 1000 --sigterm-ckpt --resume
echo "[\$(date -u +%FT%TZ)] srun exited \$?"
EOS
sbrun; waitfor "'step': 2500," ray-mlp-$J.out 400
U=$(sbatch --parsable -p urgent -N 2 -w lab31n3,lab31n4 --mem=100M -J urgent-eval -o /dev/null --wrap "sleep 20"); log "urgent $U"
sleep 30; sbdone ray-mlp-$J.out
