#!/bin/bash
# sbatch -N2 + srun --label, Keras-like; after epoch 3 an operator runs 'scontrol suspend J' (all tasks SIGSTOPped) and
# does not resume it: the output goes silent. kept.log copied ~150 s after the last line, then resume + scancel.
CASE=j18; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J kr-cls -N 2 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST at \$(date -u +%FT%TZ)"
srun --label nice -n 10 $V/python $T --master 127.0.0.1:40661 --style keras --steps 3000 --epoch-steps 150 --ckpt-dir ck --ckpt-every 300
EOS
sbrun; waitfor "Epoch 4/" kr-cls-$J.out 400; sleep 3; scontrol suspend $J; log suspended
while [ $(quiet kr-cls-$J.out) -lt 150 ]; do sleep 2; done; cp kr-cls-$J.out kept.log; log "kept after $(quiet kr-cls-$J.out)s"
scontrol resume $J; sleep 2; scancel $J; sbdone kr-cls-$J.out
