#!/bin/bash
# sbatch -N2 (lab28n2,lab28n3) + srun --label, torchtitan-like; the memmap'ed feature file (a copy in the run dir) is
# truncated to 0 bytes after step 700 (as a concurrent rewrite would) -> SIGBUS on the next read.
CASE=e04; source /work/wt28b/tests/corpus/heldout28/gen_h28b/common.sh; cp /work/lab28b/data/feat.bin $RUN/feat.bin
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J titan-mlp -N 2 -w lab28n2,lab28n3 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:39644 --style titan --data $RUN/feat.bin --steps 4000 --log-every 50
EOS
sbrun; waitfor "step:   700" titan-mlp-$J.out 400; truncate -s 0 $RUN/feat.bin; log truncated; sbdone titan-mlp-$J.out
