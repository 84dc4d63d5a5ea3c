#!/bin/bash
# sbatch -N2 --requeue --open-mode=append (partition train) + srun --label, Python logging with a SIGTERM handler
# (--sigterm-ckpt) and --resume; after step 700 a 2-node 'urgent' job on the same nodes
# preempts it: the tasks save a checkpoint and exit,
# Slurm requeues the job, which resumes after the urgent job and finishes.
CASE=j15; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J pl-pre -N 2 -w lab29n3,lab29n4 --ntasks-per-node=1 --mem=1500M --requeue --open-mode=append -o %x-%j.out
echo "[\$(date -u +%FT%TZ)] job \$SLURM_JOB_ID restart \${SLURM_RESTART_COUNT:-0} nodes \$SLURM_JOB_NODELIST"
srun --label nice -n 10 $V/python $T --master 127.0.0.1:40656 --style pylog --steps 1600 --log-every 100 --ckpt-dir $RUN/ck --ckpt-every 500 --resume --sigterm-ckpt
echo "[\$(date -u +%FT%TZ)] srun exited \$?"
EOS
sbrun; waitfor "step 700/" pl-pre-$J.out 400
U=$(sbatch --parsable -p urgent -N 2 -w lab29n3,lab29n4 --mem=100M -J urgent-eval -o /dev/null --wrap "sleep 15"); log "urgent $U"
sleep 20; sbdone pl-pre-$J.out
