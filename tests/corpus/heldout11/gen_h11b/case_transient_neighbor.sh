#!/bin/bash
# h11b_transient_slowdown_recovers: like case_noisy_neighbor.sh, but the two busy loops on rank 1's CPU run for only 8 s;
# the run then goes back to its normal pace and finishes.
G=/work/wt11b/tests/corpus/heldout11/gen_h11b; V=/work/lab11b/venv/bin
D=/work/lab11b/runs/transient; rm -rf $D; mkdir -p $D; cd $D
$V/torchrun --nproc-per-node 2 --master-port 29627 $G/train_lm.py --data /work/lab11b/tokens.bin \
  --steps 900 --log-every 20 --save-every 300 > out.log 2>&1 &
TR=$!
sleep 8
R0=$($G/rankpid.sh $TR 0); R1=$($G/rankpid.sh $TR 1)
taskset -a -cp 0 $R0 >/dev/null; taskset -a -cp 1 $R1 >/dev/null
sleep 22
H1=$(taskset -c 1 python3 -c 'while True: pass' & echo $!); H2=$(taskset -c 1 python3 -c 'while True: pass' & echo $!)
sleep 8; kill $H1 $H2
wait $TR; echo "rc=$?" >&2
