#!/bin/bash
# sbatch --array=0-2 (-N1 -n2 per task) + srun --label, NeMo-style sweep over the learning rate; after task 2 passes
# its step-500 checkpoint an administrator sets task 2's node DOWN ('scontrol update ... state=down reason=...').
CASE=b14; source /work/wt30b/tests/corpus/heldout30/gen_h30b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J nemo-lr --array=0-2 -N 1 -n 2 --mem=1200M --no-requeue -o %x-%A_%a.out
LR=(1e-3 3e-3 6e-3)
echo "task \$SLURM_ARRAY_TASK_ID lr=\${LR[\$SLURM_ARRAY_TASK_ID]} on \$SLURM_JOB_NODELIST"
srun --label nice -n 10 $V/python $T --master 127.0.0.1:\$((41671 + SLURM_ARRAY_TASK_ID)) --style nemo --steps 2500 --log-every 50 --lr \${LR[\$SLURM_ARRAY_TASK_ID]} --ckpt-dir ck\$SLURM_ARRAY_TASK_ID --ckpt-every 500
EOS
sbrun; for i in $(seq 1 400); do [ -e ck2/step_500/trainer_state.json ] && break; sleep 1; done; sleep 3
N=$(squeue -h -j ${J}_2 -o %N); scontrol update nodename=$N state=down reason="ECC errors reported by BMC"; log "down $N"
sbdone nemo-lr-${J}_2.out; echo "$N" > task2.node; scontrol update nodename=$N state=resume; sinfo
