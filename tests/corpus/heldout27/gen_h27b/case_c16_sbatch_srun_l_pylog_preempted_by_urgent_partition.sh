#!/bin/bash
# sbatch -N2 --mem=3000M --requeue --open-mode=append (lab27n3,lab27n4) in partition train (PriorityTier 1, GraceTime 15)
# + srun --label, Python logging, SIGTERM handler that saves a checkpoint; after step 800 a job in partition urgent
# (PriorityTier 10) asks for lab27n3 with --mem=2500M: preempt/partition_prio requeues the training job. The output file
# is copied once the job is back to PENDING, then the job is cancelled.
CASE=c16; source /work/wt27b/tests/corpus/heldout27/gen_h27b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J pt-lowprio -N 2 -w lab27n3,lab27n4 --ntasks-per-node=1 --mem=3000M --requeue --open-mode=append -o %x-%j.out
echo "[\$(date -u +%FT%TZ)] job \$SLURM_JOB_ID restart count \${SLURM_RESTART_COUNT:-0} on \$SLURM_JOB_NODELIST"
srun --label nice -n 10 $V/python $T --master 127.0.0.1:38116 --style pylog --steps 6000 --log-every 100 --ckpt-dir ck --ckpt-every 500 --sigterm-ckpt --resume
EOS
sbrun; F=pt-lowprio-$J.out; waitfor "step 800/" $F 400
U=$(sbatch --parsable -p urgent -w lab27n3 -N1 --mem=2500M -o /dev/null --wrap "sleep 40"); log "urgent $U"
for i in $(seq 1 120); do squeue -h -j $J -o %T | grep -q PENDING && break; sleep 1; done; sleep 5
squeue -j $J; cp $F kept.log; scancel $J; sbdone $F; scancel $U
