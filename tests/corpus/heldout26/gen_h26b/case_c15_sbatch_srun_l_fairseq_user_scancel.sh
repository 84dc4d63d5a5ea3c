#!/bin/bash
# sbatch -N2 (lab26n3,lab26n4) + srun --label, fairseq-style; the user runs 'scancel <job>' after update ~1500.
CASE=c15; source /work/wt26b/tests/corpus/heldout26/gen_h26b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J fs-tab -N 2 -w lab26n3,lab26n4 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST started \$(date -u +%FT%TZ)"
srun --label nice -n 10 $V/python $T26 --master 127.0.0.1:37015 --style fairseq --steps 6000 --log-every 100 --ckpt-dir ck --ckpt-every 500
echo "srun exited \$? at \$(date -u +%FT%TZ)"
EOS
sbrun; waitfor "num_updates=1500," fs-tab-$J.out 300; scancel $J; log scancel
sbdone fs-tab-$J.out
