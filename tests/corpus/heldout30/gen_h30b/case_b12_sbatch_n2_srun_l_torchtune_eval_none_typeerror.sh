#!/bin/bash
# sbatch -N2 + srun --label, torchtune-like, eval every 500 with max_eval_samples=None (a program bug) -> TypeError
# at the first evaluation.
CASE=b12; source /work/wt30b/tests/corpus/heldout30/gen_h30b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J tt-eval -N 2 --ntasks-per-node=1 --mem=1200M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:41653 --style torchtune --steps 3000 --log-every 50 --ckpt-dir ck --ckpt-every 250 --eval-every 500 --eval-bug
EOS
sbrun; sbdone tt-eval-$J.out
