#!/bin/bash
# sbatch -N2 (lab29n1, lab29n2) + srun --label, MMEngine-like, checkpoints every 300; logits divided by a temperature
# annealed linearly to 0 at step 900 (a schedule bug) -> the loss climbs, then nan -> FloatingPointError.
CASE=j22; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J mm-temp -N 2 -w lab29n1,lab29n2 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:40665 --style mmengine --steps 3000 --log-every 50 --ckpt-dir ck --ckpt-every 300 --anneal-temp-to 900
EOS
sbrun; sbdone mm-temp-$J.out
