#!/bin/bash
# sbatch -N2 + srun --label, plain prints; the job script points --data at a file name with a typo -> FileNotFoundError
# on both tasks at start-up.
CASE=j12; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J tab-plain -N 2 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
DATA=/work/lab29b/data/feats.bin
echo "[\$(date -u +%T)] training on \$DATA"
srun --label nice -n 10 $V/python $T --master 127.0.0.1:40653 --style plain --steps 2000 --data \$DATA
echo "[\$(date -u +%T)] srun exit code \$?"
EOS
sbrun; sbdone tab-plain-$J.out
