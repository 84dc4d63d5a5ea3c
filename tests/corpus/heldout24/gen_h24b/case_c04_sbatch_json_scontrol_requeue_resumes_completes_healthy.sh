#!/bin/bash
# sbatch -N2 --requeue --open-mode=append, JSON metric lines; after step ~900 an admin runs `scontrol requeue`;
# the job is started again (StartTime=now), resumes from the step-800 checkpoint and completes. One output file.
CASE=c04; source /work/wt24b/tests/corpus/heldout24/gen_h24b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J lm-json -N 2 -w lab24n3,lab24n4 --ntasks-per-node=1 --mem=1500M --requeue --open-mode=append -o slurm-%j.out
echo "start \$(date -u +%FT%TZ) job=\$SLURM_JOB_ID restart_count=\${SLURM_RESTART_COUNT:-0} nodes=\$SLURM_JOB_NODELIST"
srun --label nice -n 10 $V/python $T24 --master 127.0.0.1:29743 --fmt json --steps 2400 --log-every 50 --eval-every 600 --ckpt-dir $RUN/ck --ckpt-every 400 --resume
echo "end \$(date -u +%FT%TZ) srun_rc=\$?"
EOS
sbrun; waitfor '"step": 900,' slurm-$J.out 300
scontrol requeue $J; echo "requeued $(date -u +%T)"
for i in $(seq 1 60); do squeue -h -j $J -o %T | grep -q PENDING && break; sleep 1; done
scontrol update jobid=$J StartTime=now; sleep 2
waitfor "restart_count=1" slurm-$J.out 200; sbdone slurm-$J.out
