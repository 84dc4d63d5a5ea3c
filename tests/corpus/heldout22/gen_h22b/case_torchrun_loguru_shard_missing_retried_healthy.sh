#!/bin/bash
# torchrun 2 ranks, loguru; shard rotation every 300 steps; shard2 (private copy) moved away before rotation reaches it
# and moved back 6 s after the first retry warning; an lr spike (x5 for 10 steps at step 700) that recovers.
CASE=torchrun_loguru_shard_missing; source /work/wt22b/tests/corpus/heldout22/gen_h22b/common.sh
mkdir dat; cp $D/shard*.bin dat/
$TR $G/t22.py --data dat/shard0.bin,dat/shard1.bin,dat/shard2.bin,dat/shard3.bin --fmt loguru --steps 2000 --log-every 50 \
  --shard-steps 300 --open-retries 6 --lr-spike 700:5:10 --ckpt-dir ck --ckpt-every 400 > out.log 2>&1 &
waitfor "step 450/" out.log; mv dat/shard2.bin dat/.shard2.moving; echo "moved $(date -u +%T)"
waitfor "could not open shard" out.log; sleep 6; mv dat/.shard2.moving dat/shard2.bin; echo "restored $(date -u +%T)"
wait; echo exit=$?
