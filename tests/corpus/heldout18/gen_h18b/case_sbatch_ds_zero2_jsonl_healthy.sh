#!/bin/bash
# NONE: sbatch job, srun -l 4 tasks on lab18n[1-4], DeepSpeed ZeRO-2 on the CPU accelerator (gloo), DeepSpeed INFO
# logging, JSON-lines metrics from rank 0, checkpoint every 100 steps into the job's directory; the batch script's
# prolog-like part probes a scratch dir that is not there and an optional wandb login (not installed) before
# starting. Nothing injected.
CASE=sbatch_ds_healthy; source "$(dirname "$0")/common.sh"
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J ds-zero2-lm -N 4 -n 4 --mem=1500M -o slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29631 OMP_NUM_THREADS=1 DS_ACCELERATOR=cpu
echo "[\$(date -Is)] job \$SLURM_JOB_ID nodes=\$SLURM_JOB_NODELIST ntasks=\$SLURM_NTASKS"
df -h /scratch/\$USER 2>&1 || echo "WARNING: /scratch not mounted on \$(hostname), checkpoints go to \$PWD"
$V/python -c "import wandb" 2>&1 | tail -1 || true
srun -l $V/python $G/ds18.py --steps 400 --print-every 25 --save-every 100 --save-dir $RUN/ckpt
echo "[\$(date -Is)] done rc=\$?"
EOS
J=$(sbatch --parsable job.sh); echo "job $J" >&2
while squeue -h -j $J | grep -q .; do sleep 2; done
cp slurm-$J.out out.log; scontrol show job $J | grep -E "JobState|Reason" >&2
