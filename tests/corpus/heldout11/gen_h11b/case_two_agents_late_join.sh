#!/bin/bash
# h11b_two_agents_late_join_healthy: two torchrun agents (nnodes=2, c10d rendezvous on 127.0.0.1:29630, one process each),
# the second agent starts 40 s after the first (a slow node start); both write to one output file as srun would.
G=/work/wt11b/tests/corpus/heldout11/gen_h11b; V=/work/lab11b/venv/bin
D=/work/lab11b/runs/latejoin; rm -rf $D; mkdir -p $D; cd $D
R="--nnodes 2 --nproc-per-node 1 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29630 --rdzv-id job42"
A="$G/train_lm.py --data /work/lab11b/tokens.bin --steps 400 --log-every 20 --save-every 200"
$V/torchrun $R $A > out.log 2>&1 &
P0=$!
sleep 40
$V/torchrun $R $A >> out.log 2>&1 &
P1=$!
wait $P0; echo "rc0=$?" >&2; wait $P1; echo "rc1=$?" >&2
