#!/bin/bash
# sbatch -N2 + srun --label --kill-on-bad-exit=1, Python logging from both ranks; steps 900-929 use mislabelled batches
# (the loss spikes, then recovers); checkpoints every 600; nothing else injected.
CASE=c27; source /work/wt27b/tests/corpus/heldout27/gen_h27b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J tab-spike -N 2 -w lab27n1,lab27n2 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
srun --label --kill-on-bad-exit=1 nice -n 10 $V/python $T --master 127.0.0.1:38127 --style pylog --steps 2000 --log-every 50 --spike-at 900 --ckpt-dir ck --ckpt-every 600
EOS
sbrun; sbdone tab-spike-$J.out
