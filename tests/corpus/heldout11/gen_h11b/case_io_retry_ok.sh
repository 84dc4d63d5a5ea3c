#!/bin/bash
# h11b_data_read_retry_recovers: data file renamed away for ~3 s mid-run and put back (a shared-FS blip);
# the dataset retries reads (--io-retries 3) and training continues to the end.
G=/work/wt11b/tests/corpus/heldout11/gen_h11b; V=/work/lab11b/venv/bin
D=/work/lab11b/runs/ioretry; rm -rf $D; mkdir -p $D; cd $D; cp /work/lab11b/tokens.bin data.bin
$V/torchrun --nproc-per-node 2 --master-port 29621 $G/train_lm.py --data $D/data.bin \
  --steps 500 --log-every 20 --save-every 250 --io-retries 3 > out.log 2>&1 &
TR=$!
sleep 22; mv data.bin data.bin.moved; sleep 3; mv data.bin.moved data.bin
wait $TR; echo "rc=$?" >&2
