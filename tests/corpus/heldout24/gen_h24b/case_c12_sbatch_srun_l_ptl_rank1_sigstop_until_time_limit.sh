#!/bin/bash
# sbatch -N2 --time=3, srun --label, PTL-style; at global_step ~800 rank 1 (lab24n2) is SIGSTOPped and never resumed:
# the job sits silent until Slurm's time limit kills it.
CASE=c12; source /work/wt24b/tests/corpus/heldout24/gen_h24b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J nemo-tiny -N 2 -w lab24n1,lab24n2 --ntasks-per-node=1 --mem=1500M --time=3 --no-requeue -o %x-%j.out
echo "SLURM_JOB_ID=\$SLURM_JOB_ID SLURM_JOB_NODELIST=\$SLURM_JOB_NODELIST start=\$(date -u +%FT%TZ) time_limit=3min"
srun --label nice -n 10 $V/python $T24 --master 127.0.0.1:29746 --fmt ptl --steps 20000 --epoch-steps 1000 --log-every 25 --eval-every 1000 --ckpt-dir ck --ckpt-every 1000
EOS
sbrun; waitfor "global_step=799.0" nemo-tiny-$J.out 300
P=$(envpids SLURM_PROCID=1); kill -STOP $P; echo "stopped $P $(date -u +%T)"
sbdone nemo-tiny-$J.out; kill -CONT $P 2>/dev/null
