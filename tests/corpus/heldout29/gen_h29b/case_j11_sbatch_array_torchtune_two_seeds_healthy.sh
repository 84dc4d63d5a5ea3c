#!/bin/bash
# sbatch --array=0-1%1 (-N1 -n2) + srun --label, torchtune-like, checkpoints every 400; task 1 kept. Healthy.
CASE=j11; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J tt-sweep --array=0-1%1 -N 1 -n 2 --mem=1500M --no-requeue -o %x-%A_%a.out
echo "array task \$SLURM_ARRAY_TASK_ID of \$SLURM_ARRAY_JOB_ID on \$SLURMD_NODENAME"
srun --label nice -n 10 $V/python $T --master 127.0.0.1:40652 --style torchtune --steps 1200 --log-every 50 --lr \$(( SLURM_ARRAY_TASK_ID + 2 ))e-3 --ckpt-dir ck\$SLURM_ARRAY_TASK_ID --ckpt-every 400 --eval-every 400
EOS
sbrun; sleep 5; while squeue -h -j $J | grep -q .; do sleep 2; done; sleep 1; cp tt-sweep-${J}_1.out out.log
