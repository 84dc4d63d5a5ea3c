#!/bin/bash
# sbatch -N2 (lab23n1,lab23n2), srun --label, Megatron-style; after iteration 1000 lab23n2's slurmd is SIGSTOPped
# (frozen daemon, task keeps running): slurmctld stops hearing from the node, marks it DOWN and kills the job.
CASE=c03; source /work/wt23b/tests/corpus/heldout23/gen_h23b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J gpt-tiny -N 2 -w lab23n1,lab23n2 --ntasks-per-node=1 --mem=1500M --no-requeue -o slurm-%j.out
echo "SLURM_JOB_ID=\$SLURM_JOB_ID SLURM_JOB_NODELIST=\$SLURM_JOB_NODELIST start=\$(date -u +%FT%TZ)"
srun --label nice -n 10 $V/python $T23 --master 127.0.0.1:29631 --fmt mega --steps 8000 --log-every 50 --ckpt-dir ck --ckpt-every 1000 --resume
echo "srun exit \$? at \$(date -u +%FT%TZ)"
EOS
J=$(sbatch --parsable job.sh); echo job $J
waitfor "iteration     1000/" slurm-$J.out 300
SP=$(cat /work/lab23b/slurmd-lab23n2.pid); kill -STOP $SP; echo "slurmd $SP stopped $(date -u +%T)"
sbwait $J; kill -CONT $SP; echo "slurmd cont $(date -u +%T)"; sleep 5; scontrol update nodename=lab23n2 state=resume; sinfo
