#!/bin/bash
# sbatch -N2 + srun --label, JSON lines from both ranks, TORCH_CPP_LOG_LEVEL=INFO, evaluation and checkpoints every
# 400 of 1600 steps. Nothing injected: a healthy run.
CASE=j19; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J jl-eval -N 2 -w lab29n1,lab29n2 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
export TORCH_CPP_LOG_LEVEL=INFO
srun --label nice -n 10 $V/python $T --master 127.0.0.1:40662 --style jsonl --steps 1600 --log-every 100 --eval-every 400 --ckpt-dir ck --ckpt-every 400
EOS
sbrun; sbdone jl-eval-$J.out
