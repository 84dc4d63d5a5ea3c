#!/bin/bash
# sbatch --array=0-1%1 (-N1 -n2 each) + srun --label, plain prints, eval and checkpoints; task 1's output is kept.
CASE=e13; source /work/wt28b/tests/corpus/heldout28/gen_h28b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J lr-sweep --array=0-1%1 -N 1 -n 2 --mem=1500M --no-requeue -o %x-%A_%a.out
LR=\$(python3 -c "print([3e-3, 1e-3][\$SLURM_ARRAY_TASK_ID])")
echo "task \$SLURM_ARRAY_TASK_ID lr \$LR node \$SLURMD_NODENAME"
srun --label nice -n 10 $V/python $T --master 127.0.0.1:39655 --style plain --lr \$LR --steps 900 --log-every 50 --eval-every 300 --ckpt-dir ck\$SLURM_ARRAY_TASK_ID --ckpt-every 300
EOS
sbrun; sleep 5; while squeue -h -j $J | grep -q .; do sleep 2; done; sleep 1; cp lr-sweep-${J}_1.out out.log
