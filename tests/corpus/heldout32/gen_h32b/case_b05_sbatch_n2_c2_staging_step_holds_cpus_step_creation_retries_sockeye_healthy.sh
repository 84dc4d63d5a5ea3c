#!/bin/bash
# sbatch -N2 -c2 + srun --label: a staging step (2 tasks x 2 CPUs, copies the features and waits 25 s) is started in the
# background; the training step (Sockeye-style) cannot get CPUs until it ends -> 'step creation temporarily disabled'.
CASE=b05; source /work/wt32b/tests/corpus/heldout32/gen_h32b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J sockeye-mlp -N 2 --ntasks-per-node=1 -c 2 --mem=1200M --no-requeue -o %x-%j.out
srun --label -N2 -n2 -c2 bash -c 'mkdir -p $RUN/stage && cp /work/lab32b/data/feat.bin $RUN/stage/feat.\$SLURM_PROCID.bin && echo staged on \$(hostname) && sleep 25' &
sleep 2
srun --label -N2 -n2 -c1 nice -n 10 $V/python $T --master 127.0.0.1:43655 --style sockeye --data $RUN/stage/feat.0.bin --steps 4000 --log-every 100 --eval-every 1000 --ckpt-dir $RUN/model --ckpt-every 1000
wait
EOS
sbrun; sbdone sockeye-mlp-$J.out
