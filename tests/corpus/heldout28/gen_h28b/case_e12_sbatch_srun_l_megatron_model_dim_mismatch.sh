#!/bin/bash
# sbatch -N2 + srun --label, Megatron-like; the model is built for 64 input features, the data has 48 -> shape error.
CASE=e12; source /work/wt28b/tests/corpus/heldout28/gen_h28b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J meg-cfg -N 2 -w lab28n2,lab28n4 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:39654 --style megatron --steps 3000 --log-every 100 --model-dim 64
EOS
sbrun; sbdone meg-cfg-$J.out
