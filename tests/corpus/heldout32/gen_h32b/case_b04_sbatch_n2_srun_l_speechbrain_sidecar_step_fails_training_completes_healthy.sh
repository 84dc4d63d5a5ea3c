#!/bin/bash
# sbatch -N2 + srun --label, SpeechBrain-style training step; 20 s in, a one-task sidecar step (--overlap) meant to
# export TensorBoard summaries fails (tensorboard is not installed); the training step runs on and completes.
CASE=b04; source /work/wt32b/tests/corpus/heldout32/gen_h32b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J sb-mlp -N 2 --ntasks-per-node=1 --mem=1200M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:43654 --style speechbrain --steps 4500 --epoch-steps 300 --log-every 50 --eval-every 1 --ckpt-dir $RUN/results/mlp48 --ckpt-every 600 &
sleep 20
srun --label -N1 -n1 --overlap $V/python -c "from torch.utils.tensorboard import SummaryWriter; SummaryWriter('$RUN/results/mlp48/tb')"
wait
EOS
sbrun; sbdone sb-mlp-$J.out
