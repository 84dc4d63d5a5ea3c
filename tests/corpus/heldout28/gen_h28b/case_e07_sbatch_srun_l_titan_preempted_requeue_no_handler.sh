#!/bin/bash
# sbatch -N2 --mem=3000M --requeue --open-mode=append (lab28n3,lab28n4) in partition train + srun --label, torchtitan-like
# without a signal handler; after step 600 a job in partition urgent (PriorityTier 10) asks for lab28n3 --mem=2500M:
# preempt/partition_prio requeues the job (GraceTime 15). Output copied (kept.log) when it is PENDING again, then cancelled.
CASE=e07; source /work/wt28b/tests/corpus/heldout28/gen_h28b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J titan-lowprio -N 2 -w lab28n3,lab28n4 --ntasks-per-node=1 --mem=3000M --requeue --open-mode=append -o %x-%j.out
echo "[\$(date -u +%FT%TZ)] job \$SLURM_JOB_ID restart count \${SLURM_RESTART_COUNT:-0} on \$SLURM_JOB_NODELIST"
srun --label nice -n 10 $V/python $T --master 127.0.0.1:39649 --style titan --steps 6000 --log-every 50 --ckpt-dir ck --ckpt-every 300 --resume
EOS
sbrun; F=titan-lowprio-$J.out; waitfor "step:   600" $F 400
U=$(sbatch --parsable -p urgent -w lab28n3 -N1 --mem=2500M -o /dev/null --wrap "sleep 60"); log "urgent $U"
sleep 5; for i in $(seq 1 120); do squeue -h -j $J -o %T | grep -q PENDING && break; sleep 1; done; sleep 5
squeue -j $J; cp $F kept.log; scancel $J; sbdone $F; scancel $U
