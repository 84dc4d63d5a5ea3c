#!/bin/bash
# h11b_noisy_neighbor_straggler: ranks pinned one per CPU; 25 s in, two busy-loop processes are pinned to rank 1's CPU
# (a co-located job stealing the core), so rank 1 and with it every synchronous step runs slower until the end.
G=/work/wt11b/tests/corpus/heldout11/gen_h11b; V=/work/lab11b/venv/bin
D=/work/lab11b/runs/neighbor; rm -rf $D; mkdir -p $D; cd $D
$V/torchrun --nproc-per-node 2 --master-port 29619 $G/train_lm.py --data /work/lab11b/tokens.bin \
  --steps 1000 --log-every 20 --save-every 250 > out.log 2>&1 &
TR=$!
sleep 8
R0=$($G/rankpid.sh $TR 0); R1=$($G/rankpid.sh $TR 1)
taskset -a -cp 0 $R0 >/dev/null; taskset -a -cp 1 $R1 >/dev/null
sleep 17
H1=$(taskset -c 1 python3 -c 'while True: pass' & echo $!); H2=$(taskset -c 1 python3 -c 'while True: pass' & echo $!)
echo "hogs $H1 $H2 on cpu1" >&2
wait $TR; echo "rc=$?" >&2
kill $H1 $H2
