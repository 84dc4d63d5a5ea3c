#!/bin/bash
# (b09 redone: the neighbour job slowed training too little to show) sbatch -N2 + srun --label, nanoGPT-style; task 0 is
# bound to CPU 0 and task 1 to CPU 1 at iter 300; after iter 1500 task 1 (all threads) is re-bound to CPU 0, so both
# ranks share one CPU until the end (CPU 1 left to the rest of the VM).
CASE=b09b; source /work/wt32b/tests/corpus/heldout32/gen_h32b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J gpt-mlp -N 2 -w lab32n1,lab32n2 --ntasks-per-node=1 --mem=1200M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:43661 --style nanogpt --steps 3500 --log-every 50 --eval-every 1000 --ckpt-dir $RUN/out --ckpt-every 1000
EOS
sbrun; waitfor "iter 300:" gpt-mlp-$J.out 300; P0=$(rankpid SLURM_PROCID=0); P1=$(rankpid SLURM_PROCID=1); taskset -a -p -c 0 $P0 >/dev/null; taskset -a -p -c 1 $P1 >/dev/null; log "bound $P0 $P1"
waitfor "iter 1500:" gpt-mlp-$J.out 300; taskset -a -p -c 0 $P1 >/dev/null; log "rebound $P1"
sbdone gpt-mlp-$J.out
