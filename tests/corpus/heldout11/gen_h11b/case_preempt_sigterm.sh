#!/bin/bash
# h11b_preempt_sigterm_ckpt: job killed by `timeout -s TERM` (scheduler-style) 30 s in; script has a SIGTERM->checkpoint handler
G=/work/wt11b/tests/corpus/heldout11/gen_h11b; V=/work/lab11b/venv/bin
D=/work/lab11b/runs/preempt; rm -rf $D; mkdir -p $D; cd $D
timeout -s TERM -k 60 30 $V/torchrun --nproc-per-node 2 --master-port 29613 $G/train_lm.py --data /work/lab11b/tokens.bin \
  --steps 3000 --log-every 20 --save-every 150 --handle-sigterm > out.log 2>&1
echo "rc=$?" >&2
