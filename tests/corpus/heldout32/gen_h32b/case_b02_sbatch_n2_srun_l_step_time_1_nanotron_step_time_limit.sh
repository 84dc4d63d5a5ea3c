#!/bin/bash
# sbatch -N2 (no job time limit) + 'srun --label --time=1': the training step has a one-minute step time limit.
CASE=b02; source /work/wt32b/tests/corpus/heldout32/gen_h32b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J nt-mlp -N 2 --ntasks-per-node=1 --mem=1200M --no-requeue -o %x-%j.out
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST"
srun --label --time=1 nice -n 10 $V/python $T --master 127.0.0.1:43652 --style nanotron --steps 100000 --log-every 200 --eval-every 2000 --ckpt-dir $RUN/checkpoints --ckpt-every 2000
EOS
sbrun; sbdone nt-mlp-$J.out
