#!/bin/bash
# sbatch -N2 + srun --label, fairseq-like; rank 1 SIGSTOPped after update 700: rank 0 waits in allreduce (default
# 30 min timeout) and the output goes silent; copied (kept.log) after ~150 s of silence, then scancelled.
CASE=e09; source /work/wt28b/tests/corpus/heldout28/gen_h28b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J fs-mt -N 2 -w lab28n2,lab28n4 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:39651 --style fairseq --steps 6000 --log-every 50
EOS
sbrun; F=fs-mt-$J.out; waitfor "num_updates=700," $F 400; P=$(rankpid SLURM_PROCID=1); kill -STOP $P; log "stopped $P"
sleep 150; log "quiet $(quiet $F)"; cp $F kept.log; scancel $J; kill -CONT $P; sbdone $F
