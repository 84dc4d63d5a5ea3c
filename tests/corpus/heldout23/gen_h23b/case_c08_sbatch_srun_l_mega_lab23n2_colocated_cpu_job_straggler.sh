#!/bin/bash
# sbatch -N2 (lab23n1,lab23n2), srun --label, Megatron-style; each task pinned to its "node's" CPU (lab23n1 -> CPU 0,
# lab23n2 -> CPU 1; the four nodes share this VM's 2 CPUs). After iteration 800 another user's 4-task CPU-bound job
# is scheduled onto lab23n2 (OverSubscribe=FORCE), its tasks pinned to CPU 1: the training job slows from then on.
CASE=c08; source /work/wt23b/tests/corpus/heldout23/gen_h23b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J gpt-tiny -N 2 -w lab23n1,lab23n2 --ntasks-per-node=1 --mem=1500M --no-requeue -o slurm-%j.out
echo "SLURM_JOB_ID=\$SLURM_JOB_ID SLURM_JOB_NODELIST=\$SLURM_JOB_NODELIST"
srun --label bash -c 'exec taskset -c \$SLURM_PROCID nice -n 10 $V/python $T23 --master 127.0.0.1:29638 --fmt mega --steps 2400 --log-every 50 --ckpt-dir ck --ckpt-every 800 --resume'
EOS
cat > hog.sh <<EOS
#!/bin/bash
#SBATCH -J preproc -N 1 -w lab23n2 -n 4 -O --mem=200M -t 6 -o hog-%j.out
srun -n 4 taskset -c 1 python3 -c 'while True: pass'
EOS
J=$(sbatch --parsable job.sh); echo job $J
waitfor "iteration      800/" slurm-$J.out 300
H=$(sbatch --parsable hog.sh); echo "hog job $H $(date -u +%T)"
sbwait $J; scancel $H; sleep 2; squeue
