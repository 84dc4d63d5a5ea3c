#!/bin/bash
# sbatch --array=0-1, each array task -N2 (no -w: both array tasks were placed on lab22n1,lab22n2),
# `srun --kill-on-bad-exit=1`, DeepSpeed-like lines. Array task 1: its rank 1 gets SIGSEGV (kill -SEGV) after step 500.
# Array task 0 is left alone (it runs to the end).
CASE=sbatch_array_segv; source /work/wt22b/tests/corpus/heldout22/gen_h22b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J ds-sweep -N 2 --ntasks-per-node=1 --mem=1200M --array=0-1 -o slurm-%A_%a.out
echo "array job \${SLURM_ARRAY_JOB_ID}_\${SLURM_ARRAY_TASK_ID} (job \$SLURM_JOB_ID) nodes \$SLURM_JOB_NODELIST lr=\$(( SLURM_ARRAY_TASK_ID + 1 ))e-3 start \$(date -u +%FT%TZ)"
srun --kill-on-bad-exit=1 nice -n 10 $V/python $T22 --master 127.0.0.1:\$(( 29630 + SLURM_ARRAY_TASK_ID )) --fmt ds --steps 1600 --log-every 50 --lr \$(( SLURM_ARRAY_TASK_ID + 1 ))e-3 --ckpt-dir ck\$SLURM_ARRAY_TASK_ID --ckpt-every 400
echo "srun exit \$? at \$(date -u +%FT%TZ)"
EOS
J=$(sbatch --parsable job.sh); echo job $J
waitfor "step=500," slurm-${J}_1.out 600
for p in $(envpids t22.py SLURM_PROCID=1); do tr '\0' '\n' < /proc/$p/environ | grep -qx SLURM_ARRAY_TASK_ID=1 && { kill -SEGV $p; echo "segv $p $(date -u +%T)"; }; done
sleep 5; while squeue -h -j $J | grep -q .; do sleep 2; done; scontrol show job $J | grep -E "JobState|NodeList=" ; echo done
