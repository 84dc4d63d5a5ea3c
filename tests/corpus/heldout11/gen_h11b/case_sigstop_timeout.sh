#!/bin/bash
# h11b_sigstop_gloo_timeout: rank 1 SIGSTOPped 20 s into a run with a 60 s process-group timeout
G=/work/wt11b/tests/corpus/heldout11/gen_h11b; V=/work/lab11b/venv/bin
D=/work/lab11b/runs/sigstop; rm -rf $D; mkdir -p $D; cd $D
$V/torchrun --nproc-per-node 2 --master-port 29612 $G/train_lm.py --data /work/lab11b/tokens.bin \
  --steps 3000 --log-every 20 --save-every 100 --pg-timeout 60 > out.log 2>&1 &
TR=$!
sleep 25
R1=$($G/rankpid.sh $TR 1); echo "SIGSTOP rank1 pid $R1" >&2; kill -STOP $R1
wait $TR; echo "torchrun rc=$?" >&2
kill -CONT $R1 2>/dev/null; kill -9 $R1 2>/dev/null; true
