#!/bin/bash
# sbatch -N2 --mem=900M + srun --label, Ignite-style, 2 persistent DataLoader workers per rank that keep an upsampled
# copy (4 KiB) of every sample they load -> meant to grow until the job's memory cgroup OOM-kills one. As run: the
# caches are keyed by sample index, so they stop growing below the limit; the job completed and its
# log is kept as a healthy run. The OOM was redone as b13 (10 KiB per sample).
CASE=b06; source /work/wt31b/tests/corpus/heldout31/gen_h31b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J ign-mlp -N 2 --ntasks-per-node=1 --mem=900M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:42646 --style ignite --steps 8000 --log-every 100 --eval-every 1 --workers 2 --persistent --worker-cache-kb 4 --ckpt-dir $RUN/ckpt --ckpt-every 1000
EOS
sbrun; sbdone ign-mlp-$J.out
