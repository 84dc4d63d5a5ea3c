#!/bin/bash
# sbatch -N2 + srun --label, torchvision-references-style: 'scancel --signal=INT' of the job in epoch 3.
CASE=b01; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J tvref-mlp -N 2 --ntasks-per-node=1 --mem=1200M --no-requeue -o %x-%j.out 

srun --label nice -n 10 $V/python $T --master 127.0.0.1:44651 --style tvref --steps 20000 --epoch-steps 300 --log-every 50 --eval-every 1 --ckpt-dir $RUN/out --ckpt-every 600
EOS
sbrun; waitfor "Epoch: \[3\]  \[ 99" tvref-mlp-$J.out 400; scancel --signal=INT $J; log "scancel -s INT"; sleep 60; squeue -h -j $J | grep -q . && scancel $J; sbdone tvref-mlp-$J.out
