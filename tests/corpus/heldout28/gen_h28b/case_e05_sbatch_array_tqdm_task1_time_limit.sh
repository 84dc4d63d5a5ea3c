#!/bin/bash
# sbatch --array=0-1 --time=1 (-N1 -n2 each) + srun, tqdm bars; task 0 runs 600 steps, task 1 60000 steps and hits the
# 1-minute time limit.
CASE=e05; source /work/wt28b/tests/corpus/heldout28/gen_h28b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J sweep-tq --array=0-1 -N 1 -n 2 --time=1 --mem=1500M --no-requeue -o %x-%A_%a.out
STEPS=\$(( SLURM_ARRAY_TASK_ID == 0 ? 600 : 60000 ))
echo "array task \$SLURM_ARRAY_TASK_ID on \$SLURMD_NODENAME: \$STEPS steps"
srun nice -n 10 $V/python $T --master 127.0.0.1:\$((39645 + SLURM_ARRAY_TASK_ID)) --style tqdm --steps \$STEPS --log-every 50 --ckpt-dir ck\$SLURM_ARRAY_TASK_ID --ckpt-every 500
EOS
sbrun; sleep 5; while squeue -h -j $J | grep -q .; do sleep 2; done; sleep 1; cp sweep-tq-${J}_1.out out.log; scontrol show job ${J}_1 | grep -E "JobState"
