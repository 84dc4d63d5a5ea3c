#!/bin/bash
# NONE: torchrun 2 ranks, HF-Trainer-like dict lines + tqdm bar; every 250 steps an evaluation over 2500 batches
# of 256 windows runs with no output until its eval dict (over a minute on this VM); the run finishes.
# Nothing is injected. (A first try under `unshare --uts` with a host name that does not resolve was not kept:
# the c10d store could not resolve it and only printed getaddrinfo warnings.)
CASE=tr_eval; source "$(dirname "$0")/common.sh"
$TR $T21 --fmt hf --steps 600 --log-every 25 --eval-every 250 --eval-batches 2500 --eval-batch 256 \
  --ckpt-every 250 --ckpt-dir $RUN/ckpt > out.log 2>&1
echo "exit=$?" >&2
