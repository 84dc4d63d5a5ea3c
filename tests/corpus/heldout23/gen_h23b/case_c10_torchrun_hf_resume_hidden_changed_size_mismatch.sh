#!/bin/bash
# torchrun 2 ranks, HF-Trainer-style; a first run (not kept) trains 600 steps with --hidden 384 and saves; the
# relaunch (kept) resumes from the same output dir with --hidden 512 (config changed between launches): load_state_dict
# fails with size mismatches.
CASE=c10; source /work/wt23b/tests/corpus/heldout23/gen_h23b/common.sh
$TR $T23 --fmt hf --steps 600 --epoch-steps 300 --log-every 50 --ckpt-dir ck --ckpt-every 300 > first.log 2>&1; echo "first exit=$?"
$TR $T23 --fmt hf --steps 3000 --epoch-steps 300 --log-every 50 --ckpt-dir ck --ckpt-every 300 --resume --hidden 512 > out.log 2>&1; echo "exit=$?"
