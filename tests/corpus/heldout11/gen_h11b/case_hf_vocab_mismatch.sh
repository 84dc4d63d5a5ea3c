#!/bin/bash
# h11b_hf_token_ids_exceed_vocab: HF Trainer GPT-2 (vocab_size=512) fed a token file made with a 1024-token vocabulary
G=/work/wt11b/tests/corpus/heldout11/gen_h11b; V=/work/lab11b/venv/bin
D=/work/lab11b/runs/hfvocab; rm -rf $D; mkdir -p $D; cd $D
$V/torchrun --nproc-per-node 2 --master-port 29623 $G/hf_gpt2_trainer.py --out $D/out --max-steps 300 \
  --data /work/lab11b/tokens_v1024.bin > out.log 2>&1
echo "rc=$?" >&2
