#!/bin/bash
# h11b_hf_save_enospc_tmpfs: HF Trainer output_dir on a 3 MiB tmpfs that fills up after a few checkpoints
G=/work/wt11b/tests/corpus/heldout11/gen_h11b; V=/work/lab11b/venv/bin
D=/work/lab11b/runs/hfnospc; M=/work/lab11b/mnt_out; umount $M 2>/dev/null; rm -rf $D; mkdir -p $D $M; cd $D
mount -t tmpfs -o size=3m tmpfs $M
$V/torchrun --nproc-per-node 2 --master-port 29624 $G/hf_gpt2_trainer.py --out $M/gpt2-run --max-steps 400 \
  --save-steps 40 --n-embd 128 > out.log 2>&1
echo "rc=$?" >&2
df -h $M >&2; umount $M
