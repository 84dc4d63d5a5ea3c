#!/bin/bash
# sbatch --array=0-2 (-N1 -n2 each) + srun --label, Keras-like; after epoch 3 of task 2 the user cancels that task
# ('scancel J_2'). Kept: task 2's output.
CASE=j16; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J kr-sweep --array=0-2 -N 1 -n 2 --mem=1200M --no-requeue -o %x-%A_%a.out
HID=\$(( 256 * (SLURM_ARRAY_TASK_ID + 1) ))
echo "task \$SLURM_ARRAY_TASK_ID: hidden=\$HID node=\$SLURMD_NODENAME"
srun --label nice -n 10 $V/python $T --master 127.0.0.1:\$((40657 + SLURM_ARRAY_TASK_ID)) --style keras --steps 3000 --epoch-steps 150 --hidden \$HID --ckpt-dir ck\$SLURM_ARRAY_TASK_ID --ckpt-every 300
EOS
sbrun; waitfor "Epoch 4/" kr-sweep-${J}_2.out 400; scancel ${J}_2; log cancel; sleep 5; scancel ${J}; while squeue -h -j $J | grep -q .; do sleep 2; done; sleep 1; cp kr-sweep-${J}_2.out out.log
