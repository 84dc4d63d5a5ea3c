#!/bin/bash
# h11b_brief_rank_pause_healthy: rank 1 SIGSTOPped for 6 s and continued (SIGCONT), as a brief host stall; run completes.
G=/work/wt11b/tests/corpus/heldout11/gen_h11b; V=/work/lab11b/venv/bin
D=/work/lab11b/runs/pause; rm -rf $D; mkdir -p $D; cd $D
$V/torchrun --nproc-per-node 2 --master-port 29628 $G/train_lm.py --data /work/lab11b/tokens.bin \
  --steps 700 --log-every 20 --save-every 350 --pg-timeout 300 > out.log 2>&1 &
TR=$!
sleep 24
R1=$($G/rankpid.sh $TR 1); kill -STOP $R1; sleep 6; kill -CONT $R1
wait $TR; echo "rc=$?" >&2
