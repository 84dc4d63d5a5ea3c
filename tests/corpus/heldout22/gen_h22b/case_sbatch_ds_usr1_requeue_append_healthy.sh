#!/bin/bash
# sbatch -N2 --time=2 --signal=USR1@50 --open-mode=append --requeue, DeepSpeed-like lines; the program saves a
# checkpoint on USR1 and exits 0; the batch script then requeues itself (scontrol requeue) and the second run resumes
# from the checkpoint into the same output file and finishes.
CASE=sbatch_ds_usr1; source /work/wt22b/tests/corpus/heldout22/gen_h22b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J ds-resumable -N 2 -w lab22n3,lab22n4 --ntasks-per-node=1 --mem=1500M --time=2 --signal=USR1@50 --requeue --open-mode=append -o slurm-%j.out
echo "job \$SLURM_JOB_ID restart \${SLURM_RESTART_COUNT:-0} nodes \$SLURM_JOB_NODELIST start \$(date -u +%FT%TZ)"
srun nice -n 10 $V/python $T22 --master 127.0.0.1:29627 --fmt ds --steps 3000 --log-every 100 --ckpt-dir $RUN/ck --ckpt-every 500 --resume --sig-save
rc=\$?
if [ -e $RUN/ck ] && ! ls $RUN/ck | grep -q step_3000.pt; then echo "\$(date -u +%FT%TZ) training not finished (srun exit \$rc), requeueing job \$SLURM_JOB_ID"; scontrol requeue \$SLURM_JOB_ID; fi
echo "srun exit \$rc at \$(date -u +%FT%TZ)"
EOS
J=$(sbatch --parsable job.sh); echo job $J
sleep 60; while squeue -h -j $J | grep -q .; do sleep 3; done; cp slurm-$J.out out.log; scontrol show job $J | grep -E "JobState|Restarts"; echo done
