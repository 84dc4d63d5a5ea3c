#!/bin/bash
# sbatch -N2 --mem=700M, srun --label, plain print lines; --keep-activations 0.6 keeps 0.6 MB per step forever (a
# replay buffer never trimmed): the step cgroup's memory limit is hit and the OOM killer kills a task.
CASE=c03; source /work/wt25b/tests/corpus/heldout25/gen_h25b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J tab-replay -N 2 -w lab25n1,lab25n2 --ntasks-per-node=1 --mem=700M --no-requeue -o %x-%j.out
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST started \$(date -u +%FT%TZ)"
srun --label nice -n 10 $V/python $T25 --master 127.0.0.1:29703 --style plain --steps 4000 --log-every 100 --keep-activations 0.6
echo "srun exited \$? at \$(date -u +%FT%TZ)"
EOS
sbrun; sbdone tab-replay-$J.out
