#!/bin/bash
# sbatch -N2 + srun --label, fairseq-like; after update 600 task 1 (rank 1, nice 10) is pinned with taskset to CPU 1,
# where the case starts a busy loop at nice -5; both stay until the run ends.
CASE=j09; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J fsq -N 2 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:40650 --style fairseq --steps 1500 --log-every 50 --eval-every 500
EOS
sbrun; waitfor "num_updates=600," fsq-$J.out 400; P=$(rankpid SLURM_PROCID=1)
(nice -n -5 taskset -c 1 bash -c 'while :; do :; done' &) ; sleep 0.5; B=$(pgrep -f "while :; do :; done" -n); for t in $(ls /proc/$P/task); do taskset -pc 1 $t > /dev/null; done; log "pinned $P busy $B"
sbdone fsq-$J.out; kill $B
