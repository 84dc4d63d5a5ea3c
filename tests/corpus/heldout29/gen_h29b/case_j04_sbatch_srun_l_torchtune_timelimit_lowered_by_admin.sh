#!/bin/bash
# sbatch -N2 --time=30 + srun --label, torchtune-like; after the step-1000 checkpoint an administrator lowers the job's limit with
# 'scontrol update jobid=J timelimit=2': cancelled due to time limit.
CASE=j04; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J tt-ft -N 2 --ntasks-per-node=1 --time=30 --mem=1500M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:40644 --style torchtune --steps 20000 --log-every 50 --ckpt-dir ck --ckpt-every 1000
EOS
sbrun; waitfor "Saving checkpoint took" tt-ft-$J.out 400; scontrol update jobid=$J timelimit=2; log lowered; sbdone tt-ft-$J.out
