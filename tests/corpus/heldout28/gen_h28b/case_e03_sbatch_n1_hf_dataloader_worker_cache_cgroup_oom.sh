#!/bin/bash
# sbatch -N1 -n2 --mem=1500M (lab28n1) + srun --label, HF-Trainer-like with 2 DataLoader workers per rank that keep an
# upsampled copy of every sample they load (unbounded cache): the job's memory cgroup fills and the OOM killer fires.
CASE=e03; source /work/wt28b/tests/corpus/heldout28/gen_h28b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J hf-ft -N 1 -n 2 -w lab28n1 --mem=1500M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:39643 --style hf --steps 6000 --log-every 50 --workers 2 --worker-cache-kb 8
EOS
sbrun; sbdone hf-ft-$J.out
