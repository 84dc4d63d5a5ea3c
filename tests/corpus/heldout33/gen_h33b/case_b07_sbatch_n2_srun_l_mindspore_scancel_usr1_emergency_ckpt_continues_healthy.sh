#!/bin/bash
# sbatch -N2 + srun --label, MindSpore-style, a SIGUSR1 handler that writes an emergency checkpoint and goes on: 'scancel --signal=USR1' in epoch 4; the job runs to the end (healthy).
CASE=b07; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J ms-mlp -N 2 --ntasks-per-node=1 --mem=1200M --no-requeue -o %x-%j.out 

srun --label nice -n 10 $V/python $T --master 127.0.0.1:44657 --style mindspore --steps 3000 --epoch-steps 300 --log-every 100 --ckpt-dir $RUN/ckpt --ckpt-every 600 --usr1-save
EOS
sbrun; waitfor "epoch: 4 step: 100," ms-mlp-$J.out 400; scancel --signal=USR1 $J; log "scancel -s USR1"; sbdone ms-mlp-$J.out
