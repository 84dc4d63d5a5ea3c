#!/bin/bash
# sbatch -N2 --time=2 (no --signal), srun --label, fairseq-style; a run planned too long for its limit: Slurm ends it.
CASE=c09; source /work/wt23b/tests/corpus/heldout23/gen_h23b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J fairseq-lm -N 2 -w lab23n3,lab23n4 --ntasks-per-node=1 --mem=1500M --time=2 --no-requeue -o slurm-%j.out
srun --label nice -n 10 $V/python $T23 --master 127.0.0.1:29633 --fmt fseq --steps 20000 --epoch-steps 2000 --log-every 100 --ckpt-dir ck --ckpt-every 2000 --resume
EOS
J=$(sbatch --parsable job.sh); echo job $J
sbwait $J
