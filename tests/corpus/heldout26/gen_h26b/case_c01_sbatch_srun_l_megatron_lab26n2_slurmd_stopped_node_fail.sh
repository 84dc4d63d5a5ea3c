#!/bin/bash
# sbatch -N2 (lab26n1,lab26n2) + srun --label, Megatron-style; at iteration ~1000 lab26n2's slurmd is SIGSTOPped (frozen,
# not killed; the task keeps running): slurmctld stops hearing from it (SlurmdTimeout=20) and ends the job NODE_FAIL.
CASE=c01; source /work/wt26b/tests/corpus/heldout26/gen_h26b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J mlm-pretrain -N 2 -w lab26n1,lab26n2 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST started \$(date -u +%FT%TZ)"
srun --label nice -n 10 $V/python $T26 --master 127.0.0.1:37001 --style megatron --steps 8000 --log-every 100 --ckpt-dir ck --ckpt-every 500
echo "srun exited \$? at \$(date -u +%FT%TZ)"
EOS
sbrun; waitfor "iteration     1000/" mlm-pretrain-$J.out 300
SP=$(cat /work/lab26b/slurmd-lab26n2.pid); kill -STOP $SP; log "slurmd $SP stopped"
sbdone mlm-pretrain-$J.out; kill -CONT $SP; sleep 8; scontrol update nodename=lab26n2 state=resume; sinfo
