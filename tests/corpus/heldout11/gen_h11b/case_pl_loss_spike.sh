#!/bin/bash
# h11b_pl_loss_spike_recovers: Lightning DDP run over a token file whose sequences 3200-3519 are uniform random tokens
# (a corrupt shard region: tokens_noisyseg.bin = tokens.bin with that region overwritten), read in order, so the loss
# spikes around step 200 and recovers; runs to max_steps.
G=/work/wt11b/tests/corpus/heldout11/gen_h11b; V=/work/lab11b/venv/bin
D=/work/lab11b/runs/plspike; rm -rf $D; mkdir -p $D; cd $D
$V/python $G/pl_lm.py --data /work/lab11b/tokens_noisyseg.bin --max-steps 400 --ckpt-every 200 --progress 10 --workers 2 --out $D/pl_out > out.log 2>&1
echo "rc=$?" >&2
