#!/bin/bash
# sbatch -N2 -w lab33n1,lab33n2 + srun --label, GPT-NeoX-style: after the iteration-1000 checkpoint lab33n2 (task 1's node) set DOWN by an administrator (scontrol update state=down).
CASE=b03; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J neox-mlp -N 2 --ntasks-per-node=1 --mem=1200M --no-requeue -o %x-%j.out -w lab33n1,lab33n2

srun --label nice -n 10 $V/python $T --master 127.0.0.1:44653 --style neox --steps 20000 --epoch-steps 500 --log-every 100 --eval-every 1 --ckpt-dir $RUN/checkpoints --ckpt-every 1000
EOS
sbrun; waitfor "successfully saved checkpoint at iteration    1000" neox-mlp-$J.out 400; sleep 3; scontrol update nodename=lab33n2 state=down reason="memory errors reported by BMC"; log down; sbdone neox-mlp-$J.out; sinfo -R; scontrol update nodename=lab33n2 state=resume; sinfo
