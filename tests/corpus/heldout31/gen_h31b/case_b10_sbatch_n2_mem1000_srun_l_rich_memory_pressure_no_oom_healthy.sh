#!/bin/bash
# sbatch -N2 --mem=1000M + srun --label, rich-console logging; each rank grows an in-memory feature cache and evicts
# from it when its job cgroup passes 90% of the limit (memory pressure warnings, no OOM); completes.
CASE=b10; source /work/wt31b/tests/corpus/heldout31/gen_h31b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J rich-mlp -N 2 --ntasks-per-node=1 --mem=1000M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:42651 --style rich --steps 6000 --log-every 100 --mem-cache-mb 900 --eval-every 1000 --ckpt-dir $RUN/ckpt --ckpt-every 1000
EOS
sbrun; sbdone rich-mlp-$J.out
