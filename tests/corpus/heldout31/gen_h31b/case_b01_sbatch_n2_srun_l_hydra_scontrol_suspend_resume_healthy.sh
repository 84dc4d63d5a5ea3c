#!/bin/bash
# sbatch -N2 + srun --label, Hydra-style; after step 2000 an operator runs 'scontrol suspend' on the job, and
# 'scontrol resume' 60 s later; the job continues and completes.
CASE=b01; source /work/wt31b/tests/corpus/heldout31/gen_h31b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J hydra-mlp -N 2 --ntasks-per-node=1 --mem=1200M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:42641 --style hydra --steps 6000 --log-every 100 --eval-every 1000 --ckpt-dir $RUN/outputs/checkpoints --ckpt-every 1000
EOS
sbrun; waitfor "step=2000 " hydra-mlp-$J.out 400; scontrol suspend $J; log suspended; sleep 60; scontrol resume $J; log resumed
sbdone hydra-mlp-$J.out
