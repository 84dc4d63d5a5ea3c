#!/bin/bash
# h11b_store_host_lost: two torchrun agents (nnodes=2, c10d rendezvous hosted by agent 0 at 127.0.0.1:29631, one process
# each, OMP_NUM_THREADS=1), both writing to one output file as srun would; 30 s in, agent 0 and its worker (the
# "node" hosting the rendezvous store) are SIGKILLed together, as when that host drops out.
G=/work/wt11b/tests/corpus/heldout11/gen_h11b; V=/work/lab11b/venv/bin
D=/work/lab11b/runs/storelost; rm -rf $D; mkdir -p $D; cd $D
export OMP_NUM_THREADS=1
R="--nnodes 2 --nproc-per-node 1 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29631 --rdzv-id job43"
A="$G/train_lm.py --data /work/lab11b/tokens.bin --steps 3000 --log-every 20 --save-every 200"
setsid $V/torchrun $R $A > out.log 2>&1 &
P0=$!
sleep 2
setsid $V/torchrun $R $A >> out.log 2>&1 &
P1=$!
sleep 30
kill -9 -- -$(ps -o pgid= $P0 | tr -d ' ')
wait $P1; echo "rc1=$?" >&2
