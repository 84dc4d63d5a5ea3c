#!/bin/bash
# sbatch -N2 + srun --label, Megatron-like, FutureWarnings and retried tracker uploads, validation every 400,
# checkpoints every 400. Nothing injected: a healthy run.
CASE=j10; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J gpt-small -N 2 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
echo "SLURM_JOB_NODELIST=\$SLURM_JOB_NODELIST"
srun --label nice -n 10 $V/python $T --master 127.0.0.1:40651 --style megatron --steps 1600 --log-every 50 --eval-every 400 --ckpt-dir ck --ckpt-every 400 --noisy --tracker-flaky
EOS
sbrun; sbdone gpt-small-$J.out
