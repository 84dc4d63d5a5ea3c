#!/bin/bash
# sbatch -N2 + srun --label, ColossalAI-style (pg timeout 1800 s); after step 1500 task 1 is SIGSTOPped; kept.log is
# copied after ~150 s of silence, then scancel (and SIGCONT).
CASE=b09; source /work/wt31b/tests/corpus/heldout31/gen_h31b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J clai-mlp -N 2 --ntasks-per-node=1 --mem=1200M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:42650 --style colossalai --steps 6000 --log-every 50 --eval-every 1000 --ckpt-dir $RUN/ckpt --ckpt-every 1000
EOS
sbrun; waitfor "\[step 1500\]" clai-mlp-$J.out 400; P=$(rankpid SLURM_PROCID=1); kill -STOP $P; log "stopped $P"
sleep 5; while [ $(quiet clai-mlp-$J.out) -lt 150 ]; do sleep 1; done
log "quiet $(quiet clai-mlp-$J.out)"; cp clai-mlp-$J.out kept.log; scancel $J; sleep 1; kill -CONT $P; sbdone clai-mlp-$J.out
