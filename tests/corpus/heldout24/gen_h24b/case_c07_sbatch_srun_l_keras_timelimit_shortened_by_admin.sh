#!/bin/bash
# sbatch -N2, srun --label, Keras-style; at epoch 3 an admin shortens the job's TimeLimit to 1 minute (already past):
# Slurm kills it with CANCELLED ... DUE TO TIME LIMIT.
CASE=c07; source /work/wt24b/tests/corpus/heldout24/gen_h24b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J keras-lm -N 2 -w lab24n3,lab24n4 --ntasks-per-node=1 --mem=1500M --time=30 --no-requeue -o %x-%j.out
echo "SLURM_JOB_ID=\$SLURM_JOB_ID SLURM_JOB_NODELIST=\$SLURM_JOB_NODELIST"
srun --label nice -n 10 $V/python $T24 --master 127.0.0.1:29744 --fmt keras --steps 6000 --epoch-steps 300 --log-every 50 --eval-every 300 --ckpt-dir ck --ckpt-every 1200
EOS
sbrun; waitfor "Epoch 4/" keras-lm-$J.out 300; sleep 5
scontrol update jobid=$J TimeLimit=1; echo "limit $(date -u +%T)"
sbdone keras-lm-$J.out
