#!/bin/bash
# (b09b redone: its taskset got two pids and failed) sbatch -N2 + srun --label, nanoGPT-style; task 0 bound to CPU 0 and
# task 1 to CPU 1 at iter 300; after iter 1200 task 1 (all threads) is re-bound to CPU 0 next to task 0 and reniced to 19,
# until the end.
CASE=b09c; source /work/wt32b/tests/corpus/heldout32/gen_h32b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J gpt-mlp -N 2 -w lab32n1,lab32n2 --ntasks-per-node=1 --mem=1200M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:43662 --style nanogpt --steps 3000 --log-every 50 --eval-every 1000 --ckpt-dir $RUN/out --ckpt-every 1000
EOS
sbrun; waitfor "iter 300:" gpt-mlp-$J.out 300; P0=$(rankpid SLURM_PROCID=0); P1=$(rankpid SLURM_PROCID=1); log "pids [$P0] [$P1]"
for p in $P0; do taskset -a -p -c 0 $p >/dev/null; done; for p in $P1; do taskset -a -p -c 1 $p >/dev/null; done
waitfor "iter 1200:" gpt-mlp-$J.out 300; for p in $P1; do taskset -a -p -c 0 $p >/dev/null; for t in /proc/$p/task/*; do renice -n 19 -p ${t##*/} >/dev/null; done; done; log "rebound+reniced $P1"
sbdone gpt-mlp-$J.out
