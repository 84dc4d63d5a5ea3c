#!/bin/bash
# sbatch -N2 (lab26n1,lab26n2) + srun --label, Keras-style; --keep-last keeps the partial last batch of the epoch, which
# the code's x.view(batch, 4, 8) cannot reshape: rank 0 fails at the end of epoch 1 (step 391).
CASE=c14; source /work/wt26b/tests/corpus/heldout26/gen_h26b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J keras-tab -N 2 -w lab26n1,lab26n2 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST started \$(date -u +%FT%TZ)"
srun --label nice -n 10 $V/python $T26 --master 127.0.0.1:37014 --style keras --steps 3000 --log-every 30 --keep-last
echo "srun exited \$? at \$(date -u +%FT%TZ)"
EOS
sbrun; sbdone keras-tab-$J.out
