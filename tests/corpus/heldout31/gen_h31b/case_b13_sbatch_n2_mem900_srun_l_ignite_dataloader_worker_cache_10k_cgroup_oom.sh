#!/bin/bash
# (b06 redone) sbatch -N2 --mem=900M + srun --label, Ignite-style, 2 persistent DataLoader workers per rank that keep
# an upsampled copy (10 KiB) of every sample they load -> the job's memory cgroup OOM-kills a process.
CASE=b13; source /work/wt31b/tests/corpus/heldout31/gen_h31b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J ign-oom -N 2 --ntasks-per-node=1 --mem=900M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:42656 --style ignite --steps 8000 --log-every 100 --eval-every 1 --workers 2 --persistent --worker-cache-kb 10 --ckpt-dir $RUN/ckpt --ckpt-every 1000
EOS
sbrun; sbdone ign-oom-$J.out
