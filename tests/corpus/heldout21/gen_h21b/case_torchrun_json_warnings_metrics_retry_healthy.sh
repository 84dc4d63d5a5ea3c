#!/bin/bash
# NONE: torchrun 2 ranks, JSON lines, noisy but healthy: the deprecated torch.cuda.amp wrappers (FutureWarnings
# from every rank), 4 DataLoader workers per rank (worker-count UserWarning), and a metrics push to
# 127.0.0.1:9 where nothing listens: each push fails with ConnectionRefusedError, is retried 3 times and logged as a
# WARNING, and after 3 failed pushes metrics are disabled; training finishes.
CASE=tr_warn; source "$(dirname "$0")/common.sh"
$TR $T21 --fmt json --steps 500 --log-every 25 --workers 4 --legacy-amp --metrics-url 127.0.0.1:9 \
  --ckpt-every 250 --ckpt-dir $RUN/ckpt > out.log 2>&1
echo "exit=$?" >&2
