#!/bin/bash
# sbatch -N2 --requeue --open-mode=append, srun --label, Composer-style, checkpoints every 400 batches, --resume; at
# batch ~800 an admin runs 'scontrol requeue' on the job: it is killed, requeued, restarts from the last checkpoint
# into the same output file and completes.
CASE=c24; source /work/wt25b/tests/corpus/heldout25/gen_h25b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J composer-tab -N 2 -w lab25n1,lab25n2 --ntasks-per-node=1 --mem=1500M --requeue --open-mode=append -o %x-%j.out
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST started \$(date -u +%FT%TZ) restart_count=\${SLURM_RESTART_COUNT:-0}"
srun --label nice -n 10 $V/python $T25 --master 127.0.0.1:29724 --style composer --steps 1600 --log-every 100 --ckpt-dir ck --ckpt-every 400 --epoch-steps 800 --resume
echo "srun exited \$? at \$(date -u +%FT%TZ)"
EOS
sbrun; waitfor "batch=800/" composer-tab-$J.out 300
scontrol requeue $J; echo "requeued $(date -u +%T)"
sleep 10; sbdone composer-tab-$J.out
