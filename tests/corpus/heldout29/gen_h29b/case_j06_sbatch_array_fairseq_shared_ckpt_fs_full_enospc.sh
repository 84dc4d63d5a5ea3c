#!/bin/bash
# sbatch --array=0-1 (-N1 -n2 each) + srun --label, fairseq-like; both tasks save checkpoints (6 MiB padding each,
# kept) to one 48 MiB ext4 loop fs: the file system fills and a task's save fails with Errno 28. Kept: the failing task.
CASE=j06; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh
M=$(mkloop j06 48)
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J fs-sweep --array=0-1 -N 1 -n 2 --mem=1500M --no-requeue -o %x-%A_%a.out
LR=\$(( SLURM_ARRAY_TASK_ID == 0 ? 3 : 5 ))e-3
echo "array task \$SLURM_ARRAY_TASK_ID on \$SLURMD_NODENAME: lr \$LR"
srun --label nice -n 10 $V/python $T --master 127.0.0.1:\$((40646 + SLURM_ARRAY_TASK_ID)) --style fairseq --steps 3000 --log-every 50 --lr \$LR --ckpt-dir $M/sweep\$SLURM_ARRAY_TASK_ID --ckpt-every 300 --ckpt-pad-mb 6
EOS
sbrun; sleep 5; while squeue -h -j $J | grep -q .; do sleep 2; done; sleep 1
for t in 0 1; do grep -l "Errno 28" fs-sweep-${J}_$t.out; done; F=$(grep -l "Errno 28" fs-sweep-${J}_*.out | head -1); cp $F out.log; log "kept $F"; df -h $M; rmloop j06
