#!/bin/bash
# sbatch -N2 --time=2 (lab26n1,lab26n2) + srun --label, Megatron-style, 40000 iterations (far more than 2 minutes).
CASE=c16; source /work/wt26b/tests/corpus/heldout26/gen_h26b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J gpt-tiny -N 2 -w lab26n1,lab26n2 --ntasks-per-node=1 --mem=1500M --time=2 --no-requeue -o %x-%j.out
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST started \$(date -u +%FT%TZ)"
srun --label nice -n 10 $V/python $T26 --master 127.0.0.1:37016 --style megatron --steps 40000 --log-every 200 --ckpt-dir ck --ckpt-every 2000
echo "srun exited \$? at \$(date -u +%FT%TZ)"
EOS
sbrun; sbdone gpt-tiny-$J.out
