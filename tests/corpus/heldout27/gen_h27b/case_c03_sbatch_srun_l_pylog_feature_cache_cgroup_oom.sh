#!/bin/bash
# sbatch -N2 --mem=700M (lab27n3,lab27n4) + srun --label, Python logging; at step 700 every rank builds a "feature cache"
# of 8 x 384 MB tensors inside the step's 700 MB memory cgroup: the cgroup OOM killer kills the ranks.
CASE=c03; source /work/wt27b/tests/corpus/heldout27/gen_h27b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J tab-pylog -N 2 -w lab27n3,lab27n4 --ntasks-per-node=1 --mem=700M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:38103 --style pylog --steps 2400 --log-every 100 --mem-probe-at 700 --mem-probe-gb 3
EOS
sbrun; sbdone tab-pylog-$J.out
