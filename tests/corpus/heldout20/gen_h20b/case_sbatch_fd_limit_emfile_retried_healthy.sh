#!/bin/bash
# NONE: sbatch job, 2 nodes x 1 task, `ulimit -n 64` in the batch script and --fd-cache (the data reader keeps shard
# files open): opening a shard hits EMFILE, the reader logs a WARNING, closes its cached handles and retries; the run
# finishes. Output goes through `stdbuf -oL tee` into a per-job file as well.
CASE=sb_emfile; source "$(dirname "$0")/common.sh"
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J lm-mlp -N 2 --ntasks-per-node=1 --mem=1500M -w lab20n[1-2] -o slurm-%j.out
export OMP_NUM_THREADS=1
ulimit -n 64
echo "[\$(date '+%F %T')] job \$SLURM_JOB_ID nodes \$SLURM_JOB_NODELIST, open files limit \$(ulimit -n)"
srun $V/python $T20 --master 127.0.0.1:29626 --fd-cache --batch 8 --steps 400 --log-every 50 --ckpt-every 200 --ckpt-dir $RUN/ckpt 2>&1 | stdbuf -oL tee train-\$SLURM_JOB_ID.log
echo "[\$(date '+%F %T')] done"
EOS
J=$(sbatch --parsable job.sh); echo "job $J" >&2; sbwait $J
