#!/bin/bash
# (Meant as NONE; every rank died with a segfault at the first step, kept as that.) sbatch job on lab17n[1-4]: the batch script first looks for a node-local dataset cache that is not there (ls
# fails, the script says it will read from the shared copy), then srun -l 4 tasks with TORCH_CPP_LOG_LEVEL=INFO and
# TORCH_DISTRIBUTED_DEBUG=DETAIL (c10d/gloo INFO noise), per-rank table every 50 steps, checkpoint every 100 steps;
# 300 steps, no fault injected.
CASE=sbatch_debug_info; source "$(dirname "$0")/common.sh"
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J lm-pretrain -N 4 -n 4 --mem=800M -o slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29621 OMP_NUM_THREADS=1 TORCH_CPP_LOG_LEVEL=INFO TORCH_DISTRIBUTED_DEBUG=DETAIL
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST started \$(date)"
ls /tmp/lab17b-local-cache/tokens 2>&1 || echo "no node-local cache, reading from the shared copy"
srun -l $V/python $G/t17.py --fmt table --steps 300 --log-every 50 --hidden 128 --ckpt-dir $RUN/ckpt --ckpt-every 100
echo "job finished \$(date)"
EOS
J=$(sbatch --parsable job.sh); echo "job $J" >&2
while squeue -h -j $J | grep -q .; do sleep 2; done
cp slurm-$J.out out.log; scontrol show job $J | grep -E "JobState|Reason" >&2
