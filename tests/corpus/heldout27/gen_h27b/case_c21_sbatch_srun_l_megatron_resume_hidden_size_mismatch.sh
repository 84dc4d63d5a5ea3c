#!/bin/bash
# sbatch -N2 + srun --label, Megatron-style; a first job (not kept) trains hidden 512 for 600 iterations with saves at
# 300/600; the second job resumes that directory with --hidden 768 (a changed config): load_state_dict size mismatch.
CASE=c21; source /work/wt27b/tests/corpus/heldout27/gen_h27b/common.sh
for h in 512 768; do
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J gpt-resume -N 2 -w lab27n1,lab27n2 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:38121 --style megatron --hidden $h --steps 3000 --log-every 100 --ckpt-dir $RUN/ck --ckpt-every 300 --resume
EOS
[ $h = 512 ] && sed -i 's/--steps 3000/--steps 600/' job.sh
sbrun; sbdone gpt-resume-$J.out; done
