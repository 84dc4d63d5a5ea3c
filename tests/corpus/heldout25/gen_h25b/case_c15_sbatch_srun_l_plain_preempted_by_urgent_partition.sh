#!/bin/bash
# sbatch -N2 --requeue --open-mode=append on partition batch, srun --label, plain print lines; at step ~1000 an exclusive
# job on the higher-tier partition urgent asks for the same two nodes: the training job is preempted (REQUEUE, grace
# 20 s) and goes back to pending; its output is copied while it is pending, then both jobs are cancelled.
CASE=c15; source /work/wt25b/tests/corpus/heldout25/gen_h25b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J tab-train -p batch -N 2 -w lab25n3,lab25n4 --ntasks-per-node=1 --mem=1500M --requeue --open-mode=append -o %x-%j.out
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST started \$(date -u +%FT%TZ) restart_count=\${SLURM_RESTART_COUNT:-0}"
srun --label nice -n 10 $V/python $T25 --master 127.0.0.1:29715 --style plain --steps 6000 --log-every 100 --ckpt-dir ck --ckpt-every 500 --resume
echo "srun exited \$? at \$(date -u +%FT%TZ)"
EOS
sbrun; waitfor "step=1000/" tab-train-$J.out 300
U=$(sbatch --parsable -J urgent-eval -p urgent -N 2 -w lab25n3,lab25n4 --exclusive -o /dev/null --wrap "sleep 240"); echo "urgent $U $(date -u +%T)"
for i in $(seq 1 120); do squeue -h -j $J -o %T | grep -q PENDING && break; sleep 1; done; sleep 3
cp tab-train-$J.out kept.log; echo "copied $(date -u +%T)"; squeue; scancel $J $U; sleep 3; cp tab-train-$J.out out.log
