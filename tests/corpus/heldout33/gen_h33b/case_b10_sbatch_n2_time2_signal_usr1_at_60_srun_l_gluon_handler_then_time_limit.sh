#!/bin/bash
# sbatch -N2 -w lab33n3,lab33n4 --time=2 --signal=USR1@60 + srun --label, Gluon/MXNet-style, SIGUSR1 handler that logs,
# writes an emergency checkpoint and goes on training (nothing stops the run) -> killed at the time limit.
CASE=b10; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J gluon-mlp -N 2 -w lab33n3,lab33n4 --ntasks-per-node=1 --mem=1200M --no-requeue --time=2 --signal=USR1@60 -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:44660 --style gluon --steps 60000 --epoch-steps 600 --log-every 100 --eval-every 1 --ckpt-dir $RUN/params --ckpt-every 1200 --usr1-save
EOS
sbrun; sleep 150; sbdone gluon-mlp-$J.out
