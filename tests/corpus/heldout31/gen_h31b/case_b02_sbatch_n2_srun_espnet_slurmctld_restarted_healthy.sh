#!/bin/bash
# sbatch -N2 + srun (no --label), ESPnet-style; after step 2000 slurmctld is stopped (SIGTERM) and started again 20 s
# later; the job keeps running and completes.
CASE=b02; source /work/wt31b/tests/corpus/heldout31/gen_h31b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J asr-mlp -N 2 --ntasks-per-node=1 --mem=1200M --no-requeue -o %x-%j.out
srun nice -n 10 $V/python $T --master 127.0.0.1:42642 --style espnet --steps 6000 --log-every 100 --epoch-steps 1000 --eval-every 1 --ckpt-dir $RUN/exp/asr_train --ckpt-every 1000
EOS
sbrun; waitfor "1901-2000batch" asr-mlp-$J.out 400; CP=$(cat /work/lab31b/slurm/slurmctld.pid); kill -TERM $CP; log "slurmctld $CP stopped"
sleep 20; slurmctld -f $SLURM_CONF; log "slurmctld started $(cat /work/lab31b/slurm/slurmctld.pid)"; sleep 5
sbdone asr-mlp-$J.out
