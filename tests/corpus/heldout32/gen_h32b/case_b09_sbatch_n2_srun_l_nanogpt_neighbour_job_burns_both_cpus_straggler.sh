#!/bin/bash
# sbatch -N2 -w lab32n1,lab32n2 + srun --label, nanoGPT-style; after iter 1500 another user's job (partition train,
# oversubscribed) on lab32n2 runs two CPU-bound processes at nice 0 until the training job ends (then scancelled).
CASE=b09; source /work/wt32b/tests/corpus/heldout32/gen_h32b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J gpt-mlp -N 2 -w lab32n1,lab32n2 --ntasks-per-node=1 --mem=1200M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:43659 --style nanogpt --steps 5000 --log-every 50 --eval-every 1000 --ckpt-dir $RUN/out --ckpt-every 1000
EOS
sbrun; waitfor "iter 1500:" gpt-mlp-$J.out 300
NB=$(sbatch --parsable -J prep-shards -w lab32n2 -n1 -c2 --mem=200M -o $RUN/neighbour-%j.out --wrap "cd $RUN; $V/python -c 'import multiprocessing as m
def f(_):
    while True: pass
m.Pool(2).map(f, range(2))'"); log "neighbour $NB"
sbdone gpt-mlp-$J.out; scancel $NB
