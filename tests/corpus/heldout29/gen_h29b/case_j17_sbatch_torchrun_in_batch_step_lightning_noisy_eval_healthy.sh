#!/bin/bash
# sbatch -N1 -n2 with torchrun in the batch step, Lightning-like, FutureWarnings, mirror shard-index misses (caught),
# validation and checkpoints every 500. Nothing injected: a healthy run.
CASE=j17; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh
mkdir -p mirror; touch mirror/shard-00001.idx
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J lit-run -N 1 -n 2 --mem=1500M --no-requeue -o %x-%j.out
echo "\$(date -u +%FT%TZ) \$SLURMD_NODENAME: torchrun --nproc-per-node 2"
export OMP_NUM_THREADS=1
nice -n 10 $V/python -m torch.distributed.run --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint localhost:40660 $T --style lightning --steps 2000 --log-every 50 --eval-every 500 --ckpt-dir ck --ckpt-every 500 --noisy --mirror $RUN/mirror
echo "\$(date -u +%FT%TZ) torchrun exit \$?"
EOS
sbrun; sbdone lit-run-$J.out
