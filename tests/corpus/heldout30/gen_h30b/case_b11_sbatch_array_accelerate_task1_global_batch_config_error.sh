#!/bin/bash
# sbatch --array=0-1 (-N1 -n2) + srun --label, Accelerate-logger style: task 1 of the sweep uses --grad-accum 4 with
# --global-batch 768, meant to be not divisible -> ValueError at start. As run: 768 = 96 x 2 x 4 IS divisible, so
# both tasks trained to the end; task 1's output was kept as a healthy array task.
CASE=b11; source /work/wt30b/tests/corpus/heldout30/gen_h30b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J acc-sweep --array=0-1 -N 1 -n 2 --mem=1200M --no-requeue -o %x-%A_%a.out
ACC=(1 4)
echo "task \$SLURM_ARRAY_TASK_ID: grad_accum=\${ACC[\$SLURM_ARRAY_TASK_ID]} on \$SLURM_JOB_NODELIST"
srun --label nice -n 10 $V/python $T --master 127.0.0.1:\$((41651 + SLURM_ARRAY_TASK_ID)) --style accelerate --steps 1200 --log-every 50 --grad-accum \${ACC[\$SLURM_ARRAY_TASK_ID]} --global-batch 768
EOS
sbrun; sbdone acc-sweep-${J}_1.out; cp acc-sweep-${J}_0.out out0.log
