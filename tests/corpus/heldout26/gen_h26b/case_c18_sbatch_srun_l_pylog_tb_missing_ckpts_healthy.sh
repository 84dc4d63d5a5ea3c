#!/bin/bash
# sbatch -N2 (lab26n3,lab26n4) + srun --label, Python logging with module names, checkpoints every 800, --tb
# (tensorboard missing: logged traceback); nothing injected.
CASE=c18; source /work/wt26b/tests/corpus/heldout26/gen_h26b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J tab-pylog -N 2 -w lab26n3,lab26n4 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST started \$(date -u +%FT%TZ)"
srun --label nice -n 10 $V/python $T26 --master 127.0.0.1:37018 --style pylog --steps 2400 --log-every 100 --ckpt-dir ck --ckpt-every 800 --tb
echo "srun exited \$? at \$(date -u +%FT%TZ)"
EOS
sbrun; sbdone tab-pylog-$J.out
