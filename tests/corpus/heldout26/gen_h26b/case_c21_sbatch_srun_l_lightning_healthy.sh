#!/bin/bash
# sbatch -N2 (lab26n1,lab26n2) + srun --label, Lightning-style tqdm bar + checkpoint lines every 1000; nothing injected.
CASE=c21; source /work/wt26b/tests/corpus/heldout26/gen_h26b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J pl-tab -N 2 -w lab26n1,lab26n2 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST started \$(date -u +%FT%TZ)"
srun --label nice -n 10 $V/python $T26 --master 127.0.0.1:37021 --style lightning --steps 3000 --log-every 50 --ckpt-dir ck --ckpt-every 1000
echo "srun exited \$? at \$(date -u +%FT%TZ)"
EOS
sbrun; sbdone pl-tab-$J.out
