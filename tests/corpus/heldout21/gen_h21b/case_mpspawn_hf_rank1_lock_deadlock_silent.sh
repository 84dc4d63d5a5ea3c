#!/bin/bash
# HANG (silent): torch.multiprocessing.spawn of 2 ranks (UTS hostname ml-train-3), HF-Trainer-like dict lines +
# tqdm bar, default 30-minute process-group timeout; the same lock-order bug as the deadlock case: after the
# step-200 checkpoint rank 1's upload thread holds state_lock for 6 s (--upload-slow-rank 1) and at the next logging
# step rank 1's main thread and uploader deadlock in Python; rank 0 waits in all_gather. The output is copied to
# kept.log after 150 s without a new byte, then the run is killed.
CASE=spawn_hang; source "$(dirname "$0")/common.sh"
unshare --uts bash -c "hostname ml-train-3; exec nice -n 10 $V/python $T21 --spawn 2 --fmt hf --steps 800 --log-every 10 \
  --ckpt-every 200 --ckpt-dir $RUN/ckpt --upload-after-ckpt --upload-slow-rank 1" > out.log 2>&1 &
PID=$!
waitfor "checkpoint-200" out.log 400
sleep 10; while [ $(quiet out.log) -lt 150 ]; do sleep 5; done
cp out.log kept.log; echo "copied $(date +%T), silent $(quiet out.log)s, last write $(stat -c %y out.log)" >&2
kill $(pgrep -P $PID) $PID 2>/dev/null; sleep 3
for p in $(pgrep -f "t21.py --spawn 2"); do [ "$(readlink /proc/$p/cwd)" = "$RUN" ] && kill -9 $p; done; wait
