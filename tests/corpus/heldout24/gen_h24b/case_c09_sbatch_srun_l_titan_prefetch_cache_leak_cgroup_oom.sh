#!/bin/bash
# sbatch -N2 --mem=700M, srun --label, torchtitan-style; a prefetch cache that never evicts grows 1 MB per step
# per rank: the job step's memory cgroup OOM-kills a rank.
CASE=c09; source /work/wt24b/tests/corpus/heldout24/gen_h24b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J titan-tiny -N 2 -w lab24n1,lab24n2 --ntasks-per-node=1 --mem=700M --no-requeue -o %x-%j.out
echo "SLURM_JOB_ID=\$SLURM_JOB_ID SLURM_JOB_NODELIST=\$SLURM_JOB_NODELIST"
srun --label nice -n 10 $V/python $T24 --master 127.0.0.1:29745 --fmt titan --steps 4000 --log-every 50 --cache-mb-per-step 1 --ckpt-dir ck --ckpt-every 250
EOS
sbrun; sbdone titan-tiny-$J.out
