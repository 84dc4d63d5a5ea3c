#!/bin/bash
# sbatch -N2 (lab25n3,lab25n4), srun -K --label, Composer-style; at batch ~800 an admin sets lab25n3 DOWN
# (scontrol update state=down reason=...): the job on it is killed.
CASE=c02; source /work/wt25b/tests/corpus/heldout25/gen_h25b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J composer-tab -N 2 -w lab25n3,lab25n4 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST started \$(date -u +%FT%TZ)"
srun -K --label nice -n 10 $V/python $T25 --master 127.0.0.1:29702 --style composer --steps 4000 --log-every 100 --ckpt-dir ck --ckpt-every 500 --epoch-steps 1000
echo "srun exited \$? at \$(date -u +%FT%TZ)"
EOS
sbrun; waitfor "batch=800/" composer-tab-$J.out 300
scontrol update nodename=lab25n3 state=down reason="ECC alerts from BMC, pulled for hw check"; echo "down $(date -u +%T)"
sbdone composer-tab-$J.out; sleep 2; scontrol update nodename=lab25n3 state=resume; sinfo
