#!/bin/bash
# sbatch -N2 + srun --label, JSON lines from both ranks, TORCH_CPP_LOG_LEVEL=INFO (c10d/gloo info lines), evaluation
# and checkpoints every 600; nothing injected.
CASE=c29; source /work/wt27b/tests/corpus/heldout27/gen_h27b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J jsonl-eval -N 2 -w lab27n3,lab27n4 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
export TORCH_CPP_LOG_LEVEL=INFO
srun --label nice -n 10 $V/python $T --master 127.0.0.1:38129 --style jsonl --steps 1800 --log-every 100 --eval-every 600 --eval-rounds 5 --ckpt-dir ck --ckpt-every 600
EOS
sbrun; sbdone jsonl-eval-$J.out
