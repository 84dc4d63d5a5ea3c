#!/bin/bash
# sbatch -N2 + srun --label, tqdm bar on rank 0; rank 1 SIGKILLed after step 900 (no message of its own).
CASE=e11; source /work/wt28b/tests/corpus/heldout28/gen_h28b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J tq-train -N 2 -w lab28n1,lab28n3 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:39653 --style tqdm --steps 4000 --log-every 50 --eval-every 500 --ckpt-dir ck --ckpt-every 500
EOS
sbrun; F=tq-train-$J.out; waitfor "checkpoint saved" $F 400; sleep 8; P=$(rankpid SLURM_PROCID=1); kill -KILL $P; log "killed $P"; sbdone $F
