#!/bin/bash
# sbatch -N1 -n2 (lab29n1) with torchrun in the batch step, tqdm bar; features np.memmap'ed from a private copy of the
# data file, which is truncated to 0 bytes after step 600 -> the ranks die of SIGBUS on the next page they touch.
CASE=j20; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh
cp /work/lab29b/data/feat.bin $RUN/feat.bin
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J tq-run -N 1 -n 2 -w lab29n1 --mem=1500M --no-requeue -o %x-%j.out
export OMP_NUM_THREADS=1
nice -n 10 $V/python -m torch.distributed.run --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint localhost:40663 $T --style tqdm --steps 3000 --log-every 50 --data $RUN/feat.bin --ckpt-dir ck --ckpt-every 500
EOS
sbrun; waitfor "checkpoint saved" tq-run-$J.out 400; sleep 4; truncate -s 0 $RUN/feat.bin; log truncated; sbdone tq-run-$J.out
