#!/bin/bash
# h11b_resume_truncated_ckpt: resume from a checkpoint file truncated to half its size (as a save interrupted mid-write leaves it)
G=/work/wt11b/tests/corpus/heldout11/gen_h11b; V=/work/lab11b/venv/bin
D=/work/lab11b/runs/trunc; rm -rf $D; mkdir -p $D/ckpt; cd $D
cp /work/lab11b/runs/elastic/ckpt/step_000400.pt ckpt/; truncate -s $(( $(stat -c %s ckpt/step_000400.pt) / 2 )) ckpt/step_000400.pt
$V/torchrun --nproc-per-node 2 --master-port 29615 $G/train_lm.py --data /work/lab11b/tokens.bin \
  --steps 3000 --log-every 20 --save-every 100 --resume ckpt/step_000400.pt > out.log 2>&1
echo "rc=$?" >&2
