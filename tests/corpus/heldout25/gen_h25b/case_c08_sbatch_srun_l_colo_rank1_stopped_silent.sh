#!/bin/bash
# sbatch -N2, srun --label, ColossalAI-style, --pg-timeout 1800; at step ~1200 rank 1 (lab25n4) is SIGSTOPped: rank 0
# blocks in the all-reduce and the log goes silent; copied after ~150 s of silence, then scancelled.
CASE=c08; source /work/wt25b/tests/corpus/heldout25/gen_h25b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J colo-tab -N 2 -w lab25n3,lab25n4 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST started \$(date -u +%FT%TZ)"
srun --label nice -n 10 $V/python $T25 --master 127.0.0.1:29708 --style colo --steps 4000 --log-every 100 --pg-timeout 1800
echo "srun exited \$? at \$(date -u +%FT%TZ)"
EOS
sbrun; waitfor "Step 1200/" colo-tab-$J.out 300
P=$(envpids SLURM_PROCID=1); kill -STOP $P; echo "stopped $P $(date -u +%T)"
while [ $(quiet colo-tab-$J.out) -lt 150 ]; do sleep 2; done; cp colo-tab-$J.out kept.log; echo "copied quiet=$(quiet colo-tab-$J.out) $(date -u +%T)"
scancel $J; kill -CONT $P; sbdone colo-tab-$J.out
