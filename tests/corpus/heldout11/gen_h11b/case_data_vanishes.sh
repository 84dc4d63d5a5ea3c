#!/bin/bash
# h11b_data_file_deleted_midrun: the training data file is deleted 22 s into the run (DataLoader with 2 workers, no retries)
G=/work/wt11b/tests/corpus/heldout11/gen_h11b; V=/work/lab11b/venv/bin
D=/work/lab11b/runs/vanish; rm -rf $D; mkdir -p $D; cd $D; cp /work/lab11b/tokens.bin data.bin
$V/torchrun --nproc-per-node 2 --master-port 29622 $G/train_lm.py --data $D/data.bin \
  --steps 3000 --log-every 20 --save-every 200 --num-workers 2 > out.log 2>&1 &
TR=$!
sleep 22; rm -f data.bin
wait $TR; echo "rc=$?" >&2
