#!/bin/bash
# sbatch --array=0-1 (-N1 -n2 each) + srun (no label), plain prints, checkpoints every 400; task 1's output kept; nothing injected.
CASE=c26; source /work/wt27b/tests/corpus/heldout27/gen_h27b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J abl-hid -N 1 -n 2 -w lab27n1 --mem=1500M --no-requeue -o %x-%A_%a.out
echo "task \$SLURM_ARRAY_TASK_ID host \$(hostname) nodes \$SLURM_JOB_NODELIST"
srun nice -n 10 $V/python $T --master 127.0.0.1:381\$((26+SLURM_ARRAY_TASK_ID*10)) --style plain --hidden \$((256*(1+SLURM_ARRAY_TASK_ID))) --steps 1600 --log-every 100 --ckpt-dir ck\$SLURM_ARRAY_TASK_ID --ckpt-every 400
EOS
J=$(sbatch --parsable --array=0-1 job.sh); log "job $J"; sleep 3; while squeue -h -j $J | grep -q .; do sleep 2; done; cp abl-hid-${J}_1.out out.log
