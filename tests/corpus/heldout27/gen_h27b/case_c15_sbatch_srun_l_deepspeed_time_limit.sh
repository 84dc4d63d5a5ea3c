#!/bin/bash
# sbatch -N2 --time=2 (lab27n1,lab27n2) + srun --label, DeepSpeed-style, 30000 steps (far more than 2 minutes).
CASE=c15; source /work/wt27b/tests/corpus/heldout27/gen_h27b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J ds-pretrain -N 2 -w lab27n1,lab27n2 --ntasks-per-node=1 --mem=1500M --time=2 --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:38115 --style deepspeed --steps 30000 --log-every 200 --ckpt-dir ck --ckpt-every 1000
EOS
sbrun; sbdone ds-pretrain-$J.out
