#!/bin/bash
# sbatch -N2 + srun --label, JSON lines, checkpoints every 400; after step 900 'scancel --signal=KILL' sends SIGKILL to
# the job's processes (meant as a bare signal; as run, Slurm also recorded the job CANCELLED and printed the
# CANCELLED lines).
CASE=b15; source /work/wt30b/tests/corpus/heldout30/gen_h30b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J jl-kill -N 2 --ntasks-per-node=1 --mem=1200M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:41665 --style jsonl --steps 4000 --log-every 50 --ckpt-dir ck --ckpt-every 400
EOS
sbrun; waitfor '"step": 900, "loss"' jl-kill-$J.out 400; scancel --signal=KILL --full $J; log scancel-kill; sbdone jl-kill-$J.out
