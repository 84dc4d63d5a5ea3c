#!/bin/bash
# sbatch -N2 + srun --label, OLMo-style, rank 0 takes an exclusive flock on <ckpt>/.lock around each save (pg timeout
# 1800 s); after the step-1000 save another process takes the lock and keeps it -> rank 0 blocks at the step-2000 save,
# rank 1 waits in the barrier; kept.log after 150 s of silence, then scancel.
CASE=b14; source /work/wt32b/tests/corpus/heldout32/gen_h32b/common.sh
cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J olmo-mlp -N 2 --ntasks-per-node=1 --mem=1200M --no-requeue -o %x-%j.out
srun --label nice -n 10 $V/python $T --master 127.0.0.1:43666 --style olmo --steps 6000 --log-every 100 --eval-every 1000 --ckpt-dir $RUN/ckpt --ckpt-every 1000 --ckpt-lock
EOS
sbrun; waitfor "Checkpoint saved to $RUN/ckpt/step1000" olmo-mlp-$J.out 300; (exec flock $RUN/ckpt/.lock sleep 900) & FL=$!; log "lock $FL"
sleep 5; while [ $(quiet olmo-mlp-$J.out) -lt 150 ]; do sleep 1; done; log "quiet $(quiet olmo-mlp-$J.out)"; cp olmo-mlp-$J.out kept.log
scancel $J; sbdone olmo-mlp-$J.out; kill $FL
