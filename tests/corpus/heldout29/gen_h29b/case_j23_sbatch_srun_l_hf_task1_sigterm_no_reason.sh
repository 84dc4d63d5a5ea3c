#!/bin/bash
# sbatch -N2 (lab29n3, lab29n4) + srun --label, HF-Trainer-like; after step 700 task 1 (rank 1) alone gets SIGTERM from
# outside Slurm (kill -TERM by pid; nothing prints why).
CASE=j23; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J hf-t -N 2 -w lab29n3,lab29n4 --ntasks-per-node=1 --mem=1500M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:40666 --style hf --steps 3000 --log-every 50 --eval-every 500 --ckpt-dir ck --ckpt-every 500
EOS
sbrun; waitfor "'epoch': 2.24" hf-t-$J.out 400; P=$(rankpid SLURM_PROCID=1); kill -TERM $P; log "term $P"; sbdone hf-t-$J.out
