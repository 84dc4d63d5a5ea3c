#!/bin/bash
# sbatch --array=0-1 -N2 + srun --label, litgpt-style fine-tune sweep resuming from one pretrained checkpoint (made by a
# torchrun run first, not kept): task 0 uses the pretrained width (512), task 1 --hidden 1024 -> load_state_dict size
# mismatch. Both tasks' logs kept (task 0: out0.log).
CASE=b13; PORT=43663; source /work/wt32b/tests/corpus/heldout32/gen_h32b/common.sh
TR $T --style litgpt --steps 1000 --log-every 100 --ckpt-dir $RUN/pretrained --ckpt-every 1000 > pre.log 2>&1; ls -R $RUN/pretrained | head
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J lit-ft -N 2 --ntasks-per-node=1 --mem=1200M --array=0-1 --no-requeue -o %x-%A_%a.out
W=(512 1024)
rm -rf $RUN/ft\$SLURM_ARRAY_TASK_ID; cp -r $RUN/pretrained $RUN/ft\$SLURM_ARRAY_TASK_ID
srun --label nice -n 10 $V/python $T --master 127.0.0.1:4366\$((4 + SLURM_ARRAY_TASK_ID)) --style litgpt --hidden \${W[\$SLURM_ARRAY_TASK_ID]} --steps 3000 --log-every 100 --eval-every 1000 --ckpt-dir $RUN/ft\$SLURM_ARRAY_TASK_ID --ckpt-every 1000 --resume
EOS
sbrun; sleep 3; while squeue -h -j $J | grep -q .; do sleep 2; done; sleep 1; cp lit-ft-${J}_0.out out0.log; cp lit-ft-${J}_1.out out.log; scontrol show job $J | grep -E "JobState|Reason"
