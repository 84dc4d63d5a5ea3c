#!/bin/bash
# NONE: torchrun, 2 processes, nanoGPT-style log, 400 iters, checkpoint every 200. Once, after the iter-150 line, rank 1
# is stopped for 8 s (SIGSTOP, then SIGCONT), as a brief stall (e.g. a page-cache flush or a short preemption of the
# CPU) would; the run then goes on at its earlier pace and finishes.
CASE=nanogpt_transient; source "$(dirname "$0")/common.sh"
$TR $G/t17.py --fmt nanogpt --steps 400 --log-every 10 --hidden 128 --ckpt-dir $RUN/out --ckpt-every 200 > out.log 2>&1 & L=$!
waitfor "^iter 150:" out.log 400; P=$(envpids t17.py RANK=1); kill -STOP $P; sleep 8; kill -CONT $P
wait $L; echo "exit=$?" >&2
