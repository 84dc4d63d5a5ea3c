#!/bin/bash
# sbatch -N2 --requeue --open-mode=append + srun --label, MMEngine-like, checkpoints every 300 with --resume; after
# iteration 700 the slurmd of the job's second node is SIGKILLed: NODE_FAIL, Slurm requeues the job, which restarts on
# healthy nodes, resumes from the step-600 checkpoint and finishes. (The orphaned task on the dead node is killed by
# the case and that slurmd restarted once the job was requeued.)
CASE=j01; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J mm-cls -N 2 --ntasks-per-node=1 --mem=1500M --requeue --open-mode=append -o %x-%j.out
echo "[\$(date -u +%FT%TZ)] job \$SLURM_JOB_ID (restart \${SLURM_RESTART_COUNT:-0}) on \$SLURM_JOB_NODELIST"
srun --label nice -n 10 $V/python $T --master 127.0.0.1:40641 --style mmengine --steps 1800 --log-every 50 --ckpt-dir $RUN/ck --ckpt-every 300 --resume
echo "[\$(date -u +%FT%TZ)] srun exited \$?"
EOS
sbrun; waitfor "Iter(train) \[ 700/" mm-cls-$J.out 400
N2=$(scontrol show hostnames $(squeue -h -j $J -o %N) | tail -1); SP=$(cat /work/lab29b/slurm/slurmd-$N2.pid); kill -KILL $SP; log "slurmd $N2 $SP killed"
for i in $(seq 1 120); do scontrol show job $J | grep -q "Restarts=1" && break; sleep 2; done; log requeued
for p in $(envpids SLURMD_NODENAME=$N2); do kill -9 $p; done; sleep 2; slurmd -N $N2; sleep 5; sinfo
sbdone mm-cls-$J.out
