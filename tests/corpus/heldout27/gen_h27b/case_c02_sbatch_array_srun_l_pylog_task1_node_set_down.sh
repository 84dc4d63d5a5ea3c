#!/bin/bash
# sbatch --array=0-1, each task -N1 -n2 + srun --label, Python logging from both ranks; after step 800 of array task 1
# (on lab27n4) an admin sets lab27n4 DOWN (scontrol update state=down); task 1's output file is kept.
CASE=c02; source /work/wt27b/tests/corpus/heldout27/gen_h27b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J sweep-lr -N 1 -n 2 --mem=1500M --no-requeue -o %x-%A_%a.out
echo "array task \$SLURM_ARRAY_TASK_ID of job \$SLURM_ARRAY_JOB_ID on \$SLURM_JOB_NODELIST at \$(date -u +%FT%TZ)"
LR=\$(python3 -c "print([3e-3,1e-3][\$SLURM_ARRAY_TASK_ID])")
srun --label nice -n 10 $V/python $T --master 127.0.0.1:382\$((20+SLURM_ARRAY_TASK_ID)) --style pylog --lr \$LR --steps 2400 --log-every 100 --ckpt-dir ck\$SLURM_ARRAY_TASK_ID --ckpt-every 600
echo "srun exited \$? at \$(date -u +%FT%TZ)"
EOS
sed -i 's/^#SBATCH -J sweep-lr/#SBATCH -J sweep-lr -w lab27n3/' job.sh
J0=$(sbatch --parsable --array=0 job.sh); sed -i 's/-w lab27n3/-w lab27n4/' job.sh; J1=$(sbatch --parsable --array=1 job.sh); J=$J1; log "jobs $J0 $J1"
F=sweep-lr-${J1}_1.out; waitfor "step 800/" $F 400
scontrol update nodename=lab27n4 state=down reason="healthcheck: memory errors"; log "n4 down"
sbdone $F; scontrol update nodename=lab27n4 state=resume; while squeue -h -j $J0 | grep -q .; do sleep 2; done; sinfo
