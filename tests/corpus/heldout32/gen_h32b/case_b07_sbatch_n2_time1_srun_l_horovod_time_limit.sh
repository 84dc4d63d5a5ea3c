#!/bin/bash
# sbatch -N2 --time=1 + srun --label, Horovod-style (no signal handler) -> the job's time limit.
CASE=b07; source /work/wt32b/tests/corpus/heldout32/gen_h32b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J hvd-mlp -N 2 --ntasks-per-node=1 --mem=1200M --time=1 --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:43657 --style horovod --steps 100000 --epoch-steps 600 --log-every 100 --eval-every 1 --ckpt-dir $RUN/ckpt --ckpt-every 1200
EOS
sbrun; sbdone hvd-mlp-$J.out
