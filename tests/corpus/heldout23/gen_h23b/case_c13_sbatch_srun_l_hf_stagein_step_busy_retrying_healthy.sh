#!/bin/bash
# sbatch -N2, HF-Trainer-style; the batch script starts a "stage-in" step in the background that holds the job's
# memory for 25 s, so the training step's srun prints "Job step creation temporarily disabled, retrying" until it
# ends; then trains to the end with evaluations and checkpoints. Nothing else injected.
CASE=c13; source /work/wt23b/tests/corpus/heldout23/gen_h23b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J roberta-ft -N 2 -w lab23n1,lab23n2 --ntasks-per-node=1 --mem=1500M --no-requeue -o slurm-%j.out
srun -N2 --ntasks-per-node=1 --mem=1500M bash -c 'cp $D/tok4m.bin /tmp/l23b_c13_\$SLURM_PROCID.bin; sleep 25; rm -f /tmp/l23b_c13_\$SLURM_PROCID.bin' &
sleep 2
srun --label --mem=1400M nice -n 10 $V/python $T23 --master 127.0.0.1:29634 --fmt hf --steps 3000 --epoch-steps 1000 --log-every 50 --ckpt-dir ck --ckpt-every 1000 --eval-every 1000 --eval-batches 300
wait
EOS
J=$(sbatch --parsable job.sh); echo job $J
sbwait $J
