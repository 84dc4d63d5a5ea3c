#!/bin/bash
# sbatch -N2 (lab26n3,lab26n4) + srun --label, Keras-style epoch lines, python -X faulthandler; rank 1 (lab26n4) gets
# SIGABRT at step ~1000.
CASE=c03; source /work/wt26b/tests/corpus/heldout26/gen_h26b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J keras-tab -N 2 -w lab26n3,lab26n4 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST started \$(date -u +%FT%TZ)"
srun --label nice -n 10 $V/python -X faulthandler $T26 --master 127.0.0.1:37003 --style keras --steps 6000 --log-every 50
echo "srun exited \$? at \$(date -u +%FT%TZ)"
EOS
sbrun; waitfor "Epoch 4/" keras-tab-$J.out 300; sleep 20
P=$(envpids SLURM_PROCID=1); kill -ABRT $P; log "ABRT $P"
sbdone keras-tab-$J.out
