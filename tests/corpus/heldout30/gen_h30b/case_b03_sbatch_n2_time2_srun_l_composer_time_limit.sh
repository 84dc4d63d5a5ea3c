#!/bin/bash
# sbatch -N2 --time=2 + srun --label, Composer-style, checkpoints every 1000, 40000 batches -> time limit.
CASE=b03; source /work/wt30b/tests/corpus/heldout30/gen_h30b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J comp-long -N 2 --ntasks-per-node=1 --mem=1200M --time=2 --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:41643 --style composer --steps 40000 --log-every 200 --ckpt-dir ck --ckpt-every 1000
EOS
sbrun; sbdone comp-long-$J.out
