#!/bin/bash
# sbatch -N2 + srun --label, Flair-style, features read with open()+read() per sample from a private copy: in epoch 3 the file is replaced by a named pipe (no writer), so every open() blocks (pg timeout 1800 s); kept.log after 150 s of silence, then scancel.
CASE=b08; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J flair-cls -N 2 --ntasks-per-node=1 --mem=1200M --no-requeue -o %x-%j.out 

srun --label nice -n 10 $V/python $T --master 127.0.0.1:44658 --style flair --data $RUN/feat.bin --read open --steps 4000 --epoch-steps 400 --log-every 40 --eval-every 1 --ckpt-dir $RUN/resources --ckpt-every 400
EOS
cp /work/lab33b/data/feat.bin feat.bin; sbrun; waitfor "epoch 3 - iter 120/" flair-cls-$J.out 400; mkfifo feat.fifo; mv -f feat.fifo feat.bin; log fifo; sleep 5; F=flair-cls-$J.out; while [ $(quiet $F) -lt 150 ]; do sleep 1; done; log "quiet $(quiet $F)"; cp $F kept.log; scancel $J; sbdone $F
