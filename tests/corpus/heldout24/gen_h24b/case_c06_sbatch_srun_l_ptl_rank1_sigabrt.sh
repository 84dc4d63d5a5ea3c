#!/bin/bash
# sbatch -N2, srun --label, PTL-style; after global_step ~600 rank 1 (on lab24n2) gets kill -ABRT.
CASE=c06; source /work/wt24b/tests/corpus/heldout24/gen_h24b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J nemo-tiny -N 2 -w lab24n1,lab24n2 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
echo "SLURM_JOB_ID=\$SLURM_JOB_ID SLURM_JOB_NODELIST=\$SLURM_JOB_NODELIST"
srun --label nice -n 10 $V/python $T24 --master 127.0.0.1:29742 --fmt ptl --steps 3000 --epoch-steps 500 --log-every 25 --eval-every 500 --ckpt-dir ck --ckpt-every 500
echo "srun exited with \$?"
EOS
sbrun; waitfor "global_step=599.0" nemo-tiny-$J.out 300; sleep 3
P=$(envpids SLURM_PROCID=1); kill -ABRT $P; echo "abrt $P $(date -u +%T)"
sbdone nemo-tiny-$J.out
