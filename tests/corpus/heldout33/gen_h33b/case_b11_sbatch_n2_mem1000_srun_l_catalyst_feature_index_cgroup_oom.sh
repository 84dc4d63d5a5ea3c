#!/bin/bash
# sbatch -N2 -w lab33n3,lab33n4 --mem=1000M + srun --label, Catalyst-style: at step 1000 every task builds a 1100 MiB
# in-memory feature index -> the job's memory cgroup limit on each node.
CASE=b11; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J catalyst-mlp -N 2 -w lab33n3,lab33n4 --ntasks-per-node=1 --mem=1000M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:44661 --style catalyst --steps 3000 --epoch-steps 300 --log-every 50 --eval-every 1 --ckpt-dir $RUN/logs --ckpt-every 600 --cache-mb 1100 --cache-at 1000
EOS
sbrun; sbdone catalyst-mlp-$J.out
