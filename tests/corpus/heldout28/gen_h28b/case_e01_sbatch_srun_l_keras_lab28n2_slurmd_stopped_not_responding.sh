#!/bin/bash
# sbatch -N2 (lab28n1,lab28n2) + srun --label, Keras-like; after epoch 4 lab28n2's slurmd is SIGSTOPped (the task keeps
# running): slurmctld (SlurmdTimeout=20) finds lab28n2 not responding, sets it DOWN and ends the job NODE_FAIL.
CASE=e01; source /work/wt28b/tests/corpus/heldout28/gen_h28b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J keras-cls -N 2 -w lab28n1,lab28n2 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST started \$(date -u +%FT%TZ)"
srun --label nice -n 10 $V/python $T --master 127.0.0.1:39641 --style keras --steps 9000 --epoch-steps 200 --ckpt-dir ck --ckpt-every 400
echo "srun exited \$? at \$(date -u +%FT%TZ)"
EOS
sbrun; waitfor "Epoch 5/" keras-cls-$J.out 400
SP=$(cat /work/lab28b/slurm/slurmd-lab28n2.pid); kill -STOP $SP; log "slurmd $SP stopped"
sbdone keras-cls-$J.out; kill -CONT $SP; sleep 10; for p in $(mypids); do kill $p; done; scontrol update nodename=lab28n2 state=resume; sinfo
