#!/bin/bash
# sbatch -N2 --mem=900M + srun --label, NeMo-style; at step 700 each rank builds a 1.2 GB "feature cache" -> cgroup
# OOM kill of the tasks.
CASE=b02; source /work/wt30b/tests/corpus/heldout30/gen_h30b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J nemo-mlp -N 2 --ntasks-per-node=1 --mem=900M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:41642 --style nemo --steps 3000 --log-every 50 --ckpt-dir ck --ckpt-every 500 --mem-probe-at 700 --mem-probe-gb 1.2
EOS
sbrun; sbdone nemo-mlp-$J.out
