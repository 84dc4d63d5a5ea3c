#!/bin/bash
# sbatch -N2 --mem=900M, Lightning-like progress lines; --keep-graphs (a bug: every step's loss/logits with autograd
# graph and a 1.6 MB buffer are kept in a list) -> memory grows until the cgroup OOM killer fires.
CASE=sbatch_lit_oom; source /work/wt22b/tests/corpus/heldout22/gen_h22b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J lit-lm -N 2 -w lab22n1,lab22n2 --ntasks-per-node=1 --mem=900M -o slurm-%j.out
echo "job \$SLURM_JOB_ID nodes \$SLURM_JOB_NODELIST start \$(date -u +%FT%TZ)"
srun -l nice -n 10 $V/python $T22 --master 127.0.0.1:29624 --fmt lit --steps 3000 --log-every 25 --keep-graphs --ckpt-dir ck --ckpt-every 200
echo "srun exit \$? at \$(date -u +%FT%TZ)"
EOS
J=$(sbatch --parsable job.sh); echo job $J
sbwait $J; echo done
