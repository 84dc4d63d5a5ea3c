#!/bin/bash
# sbatch -N2 -c1 --mem-per-cpu=500M + srun --label, AllenNLP-style; at step 1300 every rank builds a 600 MiB in-memory
# index -> the step's memory cgroup (500 MiB per task) OOM-kills.
CASE=b01; source /work/wt32b/tests/corpus/heldout32/gen_h32b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J allen-mlp -N 2 --ntasks-per-node=1 -c 1 --mem-per-cpu=500M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:43651 --style allennlp --steps 5000 --epoch-steps 300 --log-every 50 --eval-every 1 --ckpt-dir $RUN/serialization --ckpt-every 600 --cache-mb 600 --cache-at 1300
EOS
sbrun; sbdone allen-mlp-$J.out
