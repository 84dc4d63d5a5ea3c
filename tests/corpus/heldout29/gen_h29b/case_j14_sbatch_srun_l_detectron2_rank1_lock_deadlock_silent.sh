#!/bin/bash
# sbatch -N2 + srun --label, detectron2-like, checkpoints every 400; at step 900 rank 1 re-enters a non-reentrant
# metrics lock (self-deadlock): rank 0 waits in allreduce (default 1800 s timeout), output silent. kept.log copied
# ~150 s after the last line, then scancel.
CASE=j14; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J d2-cls -N 2 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST"
srun --label nice -n 10 $V/python $T --master 127.0.0.1:40655 --style detectron2 --steps 4000 --log-every 50 --ckpt-dir ck --ckpt-every 400 --lock-at 900
EOS
sbrun; waitfor "iter: 849 " d2-cls-$J.out 400; sleep 5; while [ $(quiet d2-cls-$J.out) -lt 150 ]; do sleep 2; done
cp d2-cls-$J.out kept.log; log "kept after $(quiet d2-cls-$J.out)s"; scancel $J; sbdone d2-cls-$J.out
