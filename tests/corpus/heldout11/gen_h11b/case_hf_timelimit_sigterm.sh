#!/bin/bash
# h11b_hf_trainer_time_limit_sigterm: HF Trainer run (no signal handler of its own) ended by `timeout -s TERM 40`,
# as a scheduler's time limit sends SIGTERM to the job step.
G=/work/wt11b/tests/corpus/heldout11/gen_h11b; V=/work/lab11b/venv/bin
D=/work/lab11b/runs/hftimelimit; rm -rf $D; mkdir -p $D; cd $D
timeout -s TERM -k 30 40 $V/torchrun --nproc-per-node 2 --master-port 29629 $G/hf_gpt2_trainer.py --out $D/out \
  --max-steps 5000 --save-steps 150 --n-embd 128 > out.log 2>&1
echo "rc=$?" >&2
