#!/bin/bash
# torchrun --max-restarts 2, torchtune-like, checkpoints every 300 with --resume; from step 500 the "unknown" class id 10
# bug (IndexError) kills the workers; each restart resumes from the step-300 checkpoint and fails the same way.
CASE=k13; PORT=40613; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh
TR --max-restarts 2 $T --style torchtune --steps 2000 --log-every 50 --ckpt-dir ck --ckpt-every 300 --resume --unk-class-at 500 > out.log 2>&1
