#!/bin/bash
# sbatch -N2 --time=2 + srun --label, Levanter-style, a SIGTERM handler that saves a checkpoint and exits; the job
# reaches its time limit (Slurm SIGTERMs the tasks, KillWait 15 s).
CASE=b04; source /work/wt31b/tests/corpus/heldout31/gen_h31b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J lev-mlp -N 2 --ntasks-per-node=1 --mem=1200M --time=2 --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:42644 --style levanter --steps 100000 --log-every 200 --ckpt-dir $RUN/checkpoints --ckpt-every 2000 --sigterm-ckpt
EOS
sbrun; sbdone lev-mlp-$J.out
