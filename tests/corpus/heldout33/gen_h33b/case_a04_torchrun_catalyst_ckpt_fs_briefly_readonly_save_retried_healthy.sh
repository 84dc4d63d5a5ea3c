#!/bin/bash
# torchrun 2 ranks, Catalyst-style, checkpoints on a 64 MiB ext4 loop fs with save retries (5 s apart): right after the
# epoch-2 checkpoint the fs is remounted read-only for 8 s, then read-write again (healthy: the retried save succeeds).
CASE=a04; PORT=44604; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh
M=$(mkloop a04ck 64)
(TR $T --style catalyst --steps 2400 --epoch-steps 300 --log-every 50 --eval-every 1 --ckpt-dir $M/logs --ckpt-every 300 --ckpt-retries 3 --noisy > out.log 2>&1 &)
waitfor "train (2/8)" out.log 300; sleep 0.5; mount -o remount,ro $M; log ro; sleep 8; mount -o remount,rw $M; log rw
waitgone 400; rmloop a04ck
