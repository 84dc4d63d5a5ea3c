#!/bin/bash
# sbatch -N2 + srun --label, DGL-dist-style: 75 s into the run an administrator lowers the running job's TimeLimit to 1 minute (scontrol update).
CASE=b02; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J dgl-sage -N 2 --ntasks-per-node=1 --mem=1200M --no-requeue -o %x-%j.out 

srun --label nice -n 10 $V/python $T --master 127.0.0.1:44652 --style dgl --steps 40000 --epoch-steps 400 --log-every 100 --eval-every 1 --ckpt-dir $RUN/ckpt --ckpt-every 800
EOS
sbrun; waitfor "Part 0 | Epoch" dgl-sage-$J.out 300; sleep 75; scontrol update jobid=$J TimeLimit=1; log "timelimit 1"; sbdone dgl-sage-$J.out
