#!/bin/bash
# sbatch -N2 + srun --label, Composer-style (pg timeout 1800 s); at batch 900 rank 1 re-enters a non-reentrant
# metrics lock (self-deadlock) and stops calling collectives; kept.log copied after ~150 s of silence, then scancel.
CASE=b08; source /work/wt30b/tests/corpus/heldout30/gen_h30b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J comp-dl -N 2 --ntasks-per-node=1 --mem=1200M --no-requeue -o %x-%j.out
echo "nodes: \$SLURM_JOB_NODELIST"
srun --label nice -n 10 $V/python $T --master 127.0.0.1:41648 --style composer --steps 3000 --log-every 100 --ckpt-dir ck --ckpt-every 500 --lock-at 900
EOS
sbrun; waitfor "batch=800/" comp-dl-$J.out 400; sleep 5; while [ $(quiet comp-dl-$J.out) -lt 150 ]; do sleep 1; done
log "quiet $(quiet comp-dl-$J.out)"; cp comp-dl-$J.out kept.log; scancel $J; sbdone comp-dl-$J.out
