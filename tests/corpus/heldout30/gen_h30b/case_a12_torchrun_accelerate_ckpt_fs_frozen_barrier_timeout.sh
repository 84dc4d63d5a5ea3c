#!/bin/bash
# torchrun 2 ranks, Accelerate-logger style, --pg-timeout 60, checkpoints every 400 to an ext4 loop fs that is frozen
# (fsfreeze) after the step-400 save -> rank 0 blocks writing the step-800 checkpoint, rank 1 waits in the barrier.
CASE=a12; PORT=41612; source /work/wt30b/tests/corpus/heldout30/gen_h30b/common.sh
M=$(mkloop a12 64)
(TR $T --style accelerate --steps 3000 --log-every 50 --pg-timeout 60 --ckpt-dir $M/ck --ckpt-every 400 > out.log 2>&1 &)
waitfor "Optimizer state saved in" out.log 300; fsfreeze -f $M; log frozen
waitfor "Timed out\|timeout\|Timeout" out.log 200; sleep 15; fsfreeze -u $M; log thawed; waitgone 120; sleep 2
for p in $(agentpids); do kill $p; done; sleep 2; rmloop a12
