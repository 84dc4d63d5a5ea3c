#!/bin/bash
# sbatch -N2 (lab22n1,lab22n2), srun one task per node, DeepSpeed-like [Rank N] lines; from step 400 rank 1's task on
# lab22n2 is stopped 0.2 s / continued 0.2 s in a loop (a throttled host) until the job ends.
CASE=sbatch_ds_stopcont; source /work/wt22b/tests/corpus/heldout22/gen_h22b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J ds-pretrain -N 2 -w lab22n1,lab22n2 --ntasks-per-node=1 --mem=1500M -o slurm-%j.out
echo "job \$SLURM_JOB_ID nodes \$SLURM_JOB_NODELIST start \$(date -u +%FT%TZ)"
srun nice -n 10 $V/python $T22 --master 127.0.0.1:29622 --fmt ds --steps 1400 --log-every 50 --ckpt-dir ck --ckpt-every 500
echo "srun exit \$? at \$(date -u +%FT%TZ)"
EOS
J=$(sbatch --parsable job.sh); echo job $J
waitfor "step=400," slurm-$J.out 600
P=$(envpids t22.py SLURM_PROCID=1); echo "rank1 pid $P $(date -u +%T)"
while kill -0 $P 2>/dev/null; do kill -STOP $P; sleep 0.2; kill -CONT $P 2>/dev/null; sleep 0.2; done &
L=$!
sbwait $J; kill $L 2>/dev/null; echo done
