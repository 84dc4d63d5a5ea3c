#!/bin/bash
# NONE: torchrun on two network-namespace "hosts" (hpc-c042, hpc-c043; 1 rank each), pdsh-style host prefixes,
# per-rank `[rank r/w host]` lines; rank 0 writes gzip-9 compressed checkpoints with a 600 MiB optimizer-like payload
# at steps 200 and 400: each save takes about a minute with no output while rank 1 waits in the barrier; the run
# finishes. Nothing is injected.
CASE=h2_gzip; source "$(dirname "$0")/common.sh"; source $G/net21.sh
net_down; net_up
ARGS="$T21 --fmt rank --steps 500 --log-every 25 --ckpt-every 200 --ckpt-compress --ckpt-extra-mb 600 --ckpt-dir $RUN/ckpt"
TR2 1 $ARGS >> out.log &
sleep 1; TR2 2 $ARGS >> out.log &
wait; echo "done $(date +%T)" >&2
net_down
