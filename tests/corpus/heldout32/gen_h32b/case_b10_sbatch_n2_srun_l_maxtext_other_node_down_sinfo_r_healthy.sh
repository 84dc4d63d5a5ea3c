#!/bin/bash
# sbatch -N2 -w lab32n1,lab32n2 + srun --label --kill-on-bad-exit=1, MaxText-style, TORCH_CPP_LOG_LEVEL=INFO; during the
# run lab32n4 (not in the job) is set DOWN by an administrator (reason "Kill task failed"); the job script prints
# 'sinfo -R' at the end. Nothing happens to the job.
CASE=b10; source /work/wt32b/tests/corpus/heldout32/gen_h32b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J maxtext-mlp -N 2 -w lab32n1,lab32n2 --ntasks-per-node=1 --mem=1200M --no-requeue -o %x-%j.out
export TORCH_CPP_LOG_LEVEL=INFO
srun --label --kill-on-bad-exit=1 nice -n 10 $V/python $T --master 127.0.0.1:43660 --style maxtext --steps 4000 --log-every 100 --eval-every 1000 --ckpt-dir $RUN/mlp48 --ckpt-every 1000
sinfo -R
EOS
sbrun; waitfor "completed step: 1000," maxtext-mlp-$J.out 300; scontrol update nodename=lab32n4 state=down reason="Kill task failed"; log down
sbdone maxtext-mlp-$J.out; scontrol update nodename=lab32n4 state=resume; sinfo -N
