#!/bin/bash
# sbatch -N2 + srun --label, MONAI-style (no handler): 'scancel --signal=USR2' of the job in epoch 4.
CASE=b05; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J monai-seg -N 2 --ntasks-per-node=1 --mem=1200M --no-requeue -o %x-%j.out 

srun --label nice -n 10 $V/python $T --master 127.0.0.1:44655 --style monai --steps 20000 --epoch-steps 300 --log-every 50 --eval-every 1 --ckpt-dir $RUN/runs --ckpt-every 600
EOS
sbrun; waitfor "Epoch: 4/67, Iter: 100/" monai-seg-$J.out 400; scancel --signal=USR2 $J; log "scancel -s USR2"; sleep 60; squeue -h -j $J | grep -q . && scancel $J; sbdone monai-seg-$J.out
