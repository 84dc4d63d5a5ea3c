#!/bin/bash
# NONE: sbatch job (requeueable, --open-mode=append), 2 nodes x 1 task, `srun -l` of t20.py plain lines with --resume;
# after the step-200 checkpoint an --exclusive job in the higher-tier partition `urgent` (sleep 20) preempts it
# (PreemptMode=REQUEUE): the tasks get SIGTERM, the job is requeued, starts again when the nodes are free, resumes
# from the newest checkpoint and finishes. Nothing else is injected: the preemption is real. The batch partition's
# GraceTime is set to 0 for this case (with 30 s the tasks died on SIGTERM, the batch script ran to its end and the
# job COMPLETED before it could be requeued; that first run was not kept).
CASE=sb_preempt; source "$(dirname "$0")/common.sh"
scontrol update PartitionName=batch GraceTime=0
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J lm-mlp -N 2 --ntasks-per-node=1 --mem=1500M -w lab20n[1-2] --requeue --open-mode=append -o slurm-%j.out
export OMP_NUM_THREADS=1
echo "[\$(date '+%F %T')] job \$SLURM_JOB_ID restart count \${SLURM_RESTART_COUNT:-0} nodes \$SLURM_JOB_NODELIST"
srun -l $V/python $T20 --fmt plain --master 127.0.0.1:29628 --steps 500 --log-every 50 --ckpt-every 100 --ckpt-dir $RUN/ckpt --resume
echo "[\$(date '+%F %T')] srun exit code \$?"
EOS
J=$(sbatch --parsable job.sh); echo "job $J" >&2
waitfor "step_0000200.pt" slurm-$J.out 600
U=$(sbatch --parsable -p urgent --exclusive -N 2 -w lab20n[1-2] -J urgent-maint -o $RUN/urgent-%j.out --wrap "sleep 20"); echo "urgent $U $(date +%T)" >&2
sbwait $J
scontrol update PartitionName=batch GraceTime=30
