#!/bin/bash
# SCHEDULER: sbatch job in partition `batch` (PriorityTier=1, PreemptMode=CANCEL, GraceTime=30), srun 4 tasks on
# lab18n[1-4], Lightning (SLURMEnvironment, ddp on gloo, TQDM bar, CSVLogger, checkpoint every 100 steps). After the
# step-100 checkpoint has been written, a job is submitted to partition `urgent` (PriorityTier=10) asking for two whole
# nodes (--exclusive); slurmctld (preempt/partition_prio) preempts the training job: SIGTERM, 30 s grace, then kill.
CASE=pl_preempted; source "$(dirname "$0")/common.sh"
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J pl-lm -p batch -N 4 --ntasks-per-node=1 --mem=1500M -o slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29632 OMP_NUM_THREADS=1
srun $V/python $G/pl18.py --num-nodes 4 --steps 1200 --out $RUN/ckpt --ckpt-every 100
EOS
J=$(sbatch --parsable job.sh); echo "job $J" >&2
for i in $(seq 1 400); do ls ckpt/*step=100*.ckpt >/dev/null 2>&1 && break; sleep 1; done; sleep 20
U=$(sbatch --parsable -J eval-urgent -p urgent -N 2 --exclusive -o urgent-%j.out --wrap "hostname; sleep 20"); echo "urgent $U" >&2
while squeue -h -j $J | grep -q .; do sleep 2; done
cp slurm-$J.out out.log; scontrol show job $J | grep -E "JobState|Reason" >&2
