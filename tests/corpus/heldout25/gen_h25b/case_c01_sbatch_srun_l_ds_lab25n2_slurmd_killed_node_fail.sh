#!/bin/bash
# sbatch -N2 (lab25n1,lab25n2), srun --label, DeepSpeed-style lines; at step ~1000 lab25n2's slurmd is SIGKILLed (the
# task keeps running): slurmctld stops hearing from the node (SlurmdTimeout=20), sets it DOWN and ends the job NODE_FAIL.
CASE=c01; source /work/wt25b/tests/corpus/heldout25/gen_h25b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J ds-tabular -N 2 -w lab25n1,lab25n2 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST started \$(date -u +%FT%TZ)"
srun --label nice -n 10 $V/python $T25 --master 127.0.0.1:29701 --style ds --steps 8000 --log-every 100 --ckpt-dir ck --ckpt-every 1000
echo "srun exited \$? at \$(date -u +%FT%TZ)"
EOS
sbrun; waitfor "steps: 1000 " ds-tabular-$J.out 300
SP=$(cat /work/lab25b/slurmd-lab25n2.pid); kill -KILL $SP; echo "slurmd $SP killed $(date -u +%T)"
sbdone ds-tabular-$J.out; slurmd -N lab25n2; sleep 5; scontrol update nodename=lab25n2 state=resume; sinfo
