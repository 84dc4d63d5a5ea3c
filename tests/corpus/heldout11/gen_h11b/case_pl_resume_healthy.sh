#!/bin/bash
# h11b_pl_resume_healthy: Lightning run resumed from a mid-run checkpoint of the loss-spike run (epoch=0-step=200.ckpt)
# with a larger max_steps; no fault.
G=/work/wt11b/tests/corpus/heldout11/gen_h11b; V=/work/lab11b/venv/bin
D=/work/lab11b/runs/plresume; rm -rf $D; mkdir -p $D; cd $D
cp /work/lab11b/runs/plspike/pl_out/ckpt/epoch=0-step=200.ckpt $D/resume.ckpt
$V/python $G/pl_lm.py --data /work/lab11b/tokens.bin --max-steps 600 --ckpt-every 200 --progress 25 --workers 2 \
  --out $D/pl_out --ckpt-path $D/resume.ckpt > out.log 2>&1
echo "rc=$?" >&2
