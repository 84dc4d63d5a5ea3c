#!/bin/bash
# sbatch -N2 + srun --label, Hydra-style; after step 1800 task 1's training process gets SIGSEGV from outside Slurm
# (no handler, no message from the program) -> srun 'task 1: Segmentation fault', rank 0 loses its peer.
CASE=b14; source /work/wt31b/tests/corpus/heldout31/gen_h31b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J hydra-seg -N 2 --ntasks-per-node=1 --mem=1200M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:42654 --style hydra --steps 6000 --log-every 100 --eval-every 1000 --ckpt-dir $RUN/outputs/checkpoints --ckpt-every 1000
EOS
sbrun; waitfor "step=1800 " hydra-seg-$J.out 400; P=$(rankpid SLURM_PROCID=1); kill -SEGV $P; log "segv $P"; sbdone hydra-seg-$J.out
