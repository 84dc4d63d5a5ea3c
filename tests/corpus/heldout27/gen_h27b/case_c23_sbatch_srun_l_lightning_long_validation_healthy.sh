#!/bin/bash
# sbatch -N2 + srun --label, Lightning-style; a 30-round validation every 700 steps (long pauses of the bar); nothing injected.
CASE=c23; source /work/wt27b/tests/corpus/heldout27/gen_h27b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J lit-cls -N 2 -w lab27n3,lab27n4 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:38123 --style lightning --steps 2100 --eval-every 700 --eval-rounds 30 --ckpt-dir ck --ckpt-every 700
EOS
sbrun; sbdone lit-cls-$J.out
