#!/bin/bash
# sbatch -N2 --time=3 (lab26n3,lab26n4) + srun --label, JSON-lines metrics from both ranks, --pg-timeout 1800; rank 0
# SIGSTOPped after step ~1000: both ranks silent until Slurm's time limit ends the job.
CASE=c08; source /work/wt26b/tests/corpus/heldout26/gen_h26b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J jsonl-tab -N 2 -w lab26n3,lab26n4 --ntasks-per-node=1 --mem=1500M --time=3 --no-requeue -o %x-%j.out
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST started \$(date -u +%FT%TZ)"
srun --label nice -n 10 $V/python $T26 --master 127.0.0.1:37008 --style jsonl --steps 20000 --log-every 100 --pg-timeout 1800
echo "srun exited \$? at \$(date -u +%FT%TZ)"
EOS
sbrun; waitfor '"step": 1000,' jsonl-tab-$J.out 300
P=$(envpids SLURM_PROCID=0); kill -STOP $P; log "stopped $P"
sbdone jsonl-tab-$J.out; kill -CONT $P 2>/dev/null
