#!/bin/bash
# sbatch -N2 + srun --label, MaxText-style; 'scancel' of the job after step 1500.
CASE=b06; source /work/wt32b/tests/corpus/heldout32/gen_h32b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J maxtext-mlp -N 2 --ntasks-per-node=1 --mem=1200M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:43656 --style maxtext --steps 20000 --log-every 100 --eval-every 1000 --ckpt-dir $RUN/mlp48 --ckpt-every 1000
EOS
sbrun; waitfor "completed step: 1500," maxtext-mlp-$J.out 300; scancel $J; log scancel; sbdone maxtext-mlp-$J.out
