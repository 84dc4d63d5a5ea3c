#!/bin/bash
# sbatch -N2 (lab27n1,lab27n2) + srun --label, Megatron-style; after iteration 800 lab27n2's slurmd is SIGKILLed (the
# task keeps running): slurmctld (SlurmdTimeout=20) marks lab27n2 DOWN and ends the job NODE_FAIL; slurmd restarted after.
CASE=c01; source /work/wt27b/tests/corpus/heldout27/gen_h27b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J gpt-small-pt -N 2 -w lab27n1,lab27n2 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST started \$(date -u +%FT%TZ)"
srun --label nice -n 10 $V/python $T --master 127.0.0.1:38101 --style megatron --steps 6000 --log-every 100 --ckpt-dir ck --ckpt-every 400
echo "srun exited \$? at \$(date -u +%FT%TZ)"
EOS
sbrun; waitfor "iteration      800/" gpt-small-pt-$J.out 400
SP=$(cat /work/lab27b/slurmd-lab27n2.pid); kill -KILL $SP; log "slurmd $SP killed"
sbdone gpt-small-pt-$J.out; slurmd -N lab27n2; sleep 5; scontrol update nodename=lab27n2 state=resume; sinfo
