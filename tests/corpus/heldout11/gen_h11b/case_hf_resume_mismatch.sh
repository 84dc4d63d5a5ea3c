#!/bin/bash
# h11b_hf_resume_config_mismatch: HF Trainer resumes a checkpoint written with n_embd=64 while the script now builds n_embd=128
G=/work/wt11b/tests/corpus/heldout11/gen_h11b; V=/work/lab11b/venv/bin
D=/work/lab11b/runs/hfa; cd $D   # out/checkpoint-100 comes from: torchrun ... hf_gpt2_trainer.py --out $D/out --max-steps 100
$V/torchrun --nproc-per-node 2 --master-port 29618 $G/hf_gpt2_trainer.py --out $D/out --max-steps 200 --n-embd 128 \
  --resume $D/out/checkpoint-100 > out2.log 2>&1
echo "rc=$?" >&2
