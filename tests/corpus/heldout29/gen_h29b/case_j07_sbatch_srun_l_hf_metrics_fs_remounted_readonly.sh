#!/bin/bash
# sbatch -N2 + srun --label, HF-Trainer-like; rank 0 appends a metrics CSV on an ext4 loop fs that is remounted
# read-only after step 600 -> Errno 30 on the next append.
CASE=j07; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh
M=$(mkloop j07 32)
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J hf-run -N 2 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:40648 --style hf --steps 3000 --log-every 50 --eval-every 500 --metrics-file $M/metrics.csv
EOS
sbrun; waitfor "'epoch': 1.92" hf-run-$J.out 400; mount -o remount,ro $M; log ro; sbdone hf-run-$J.out; rmloop j07
