#!/bin/bash
# torchrun 2 ranks, OLMo-style; the checkpoint directory is made immutable (chattr +i) after the step-1000 save.
CASE=a03; PORT=43603; source /work/wt32b/tests/corpus/heldout32/gen_h32b/common.sh
(TR $T --style olmo --steps 5000 --log-every 100 --eval-every 1000 --ckpt-dir $RUN/ckpt --ckpt-every 1000 > out.log 2>&1 &)
waitfor "Checkpoint saved to $RUN/ckpt/step1000" out.log 300; chattr +i $RUN/ckpt; log "chattr +i"; lsattr -d $RUN/ckpt
waitgone 300; chattr -i $RUN/ckpt
