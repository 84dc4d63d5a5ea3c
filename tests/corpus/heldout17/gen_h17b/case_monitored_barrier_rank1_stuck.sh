#!/bin/bash
# HANG: torchrun, 2 processes, per-rank table every 20 steps, torch.distributed.monitored_barrier (30 s,
# wait_all_ranks) every 10 steps. At step 130 rank 1 opens a FIFO that nobody writes (as a hook reading from a hung
# mount would) and blocks there forever; rank 0 waits in the monitored barrier.
CASE=monitored_barrier; source "$(dirname "$0")/common.sh"
mkfifo $RUN/stats.fifo
$TR $G/t17.py --fmt table --steps 400 --log-every 20 --hidden 128 --barrier-every 10 --barrier-timeout 30 \
  --stuck-rank 1 --stuck-step 130 --stuck-path $RUN/stats.fifo > out.log 2>&1 & L=$!
wait $L; echo "exit=$?" >&2
