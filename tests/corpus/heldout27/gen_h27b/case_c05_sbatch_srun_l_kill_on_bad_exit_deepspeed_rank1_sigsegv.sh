#!/bin/bash
# sbatch -N2 (lab27n1,lab27n2) + srun --label --kill-on-bad-exit=1, DeepSpeed-style [Rank N] logging; rank 1 is sent
# SIGSEGV after step 800.
CASE=c05; source /work/wt27b/tests/corpus/heldout27/gen_h27b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J ds-finetune -N 2 -w lab27n1,lab27n2 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
srun --label --kill-on-bad-exit=1 nice -n 10 $V/python $T --master 127.0.0.1:38105 --style deepspeed --steps 2400 --log-every 100 --ckpt-dir ck --ckpt-every 500
EOS
sbrun; waitfor "step=800," ds-finetune-$J.out 400; kill -SEGV $(envpids SLURM_PROCID=1); log segv; sbdone ds-finetune-$J.out
