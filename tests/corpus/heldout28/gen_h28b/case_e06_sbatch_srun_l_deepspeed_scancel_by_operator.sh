#!/bin/bash
# sbatch -N2 + srun --label, DeepSpeed-like logging from both ranks; scancel of the job after step 800.
CASE=e06; source /work/wt28b/tests/corpus/heldout28/gen_h28b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J ds-pretrain -N 2 -w lab28n1,lab28n4 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:39648 --style deepspeed --steps 6000 --log-every 100 --ckpt-dir ck --ckpt-every 500
EOS
sbrun; waitfor "Rank 0\] step=800," ds-pretrain-$J.out 400; scancel $J; log scancel; sbdone ds-pretrain-$J.out
