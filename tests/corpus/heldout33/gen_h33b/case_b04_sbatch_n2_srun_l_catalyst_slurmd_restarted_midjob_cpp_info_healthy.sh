#!/bin/bash
# sbatch -N2 + srun --label, Catalyst-style, TORCH_CPP_LOG_LEVEL=INFO, FutureWarnings: in epoch 3 the slurmd of lab33n2 is stopped (SIGTERM) and restarted 15 s later; nothing else injected (healthy).
CASE=b04; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J catalyst-mlp -N 2 --ntasks-per-node=1 --mem=1200M --no-requeue -o %x-%j.out 
export TORCH_CPP_LOG_LEVEL=INFO
srun --label nice -n 10 $V/python $T --master 127.0.0.1:44654 --style catalyst --steps 3000 --epoch-steps 300 --log-every 50 --eval-every 1 --ckpt-dir $RUN/logs --ckpt-every 600 --noisy
EOS
sbrun; waitfor "train (3/10)" catalyst-mlp-$J.out 400; kill $(cat /work/lab33b/slurm/slurmd-lab33n2.pid); log "slurmd stopped"; sleep 15; slurmd -N lab33n2; log "slurmd started"; sbdone catalyst-mlp-$J.out
