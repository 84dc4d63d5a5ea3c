#!/bin/bash
# h11b_dataloader_timeout_stopped_worker: DataLoader(num_workers=2, timeout=30); both workers of rank 1 SIGSTOPped 25 s in
G=/work/wt11b/tests/corpus/heldout11/gen_h11b; V=/work/lab11b/venv/bin
D=/work/lab11b/runs/dlstop; rm -rf $D; mkdir -p $D; cd $D
$V/torchrun --nproc-per-node 2 --master-port 29620 $G/train_lm.py --data /work/lab11b/tokens.bin \
  --steps 3000 --log-every 20 --save-every 200 --num-workers 2 --dl-timeout 30 > out.log 2>&1 &
TR=$!
sleep 25
R1=$($G/rankpid.sh $TR 1); W=$(pgrep -P $R1); echo "rank1 $R1 workers $W" >&2; kill -STOP $W
wait $TR; echo "rc=$?" >&2
kill -CONT $W 2>/dev/null; kill -9 $W 2>/dev/null; true
