#!/bin/bash
# APPLICATION: two JAX processes, structlog JSON lines; the eval batches are built with --eval-ctx 48 while the
# model's first layer was built for ctx 32, so the first evaluation (step 400) fails with a shape error.
CASE=jax_evalctx; source "$(dirname "$0")/common.sh"
J19 29723 --fmt json --steps 1200 --log-every 40 --eval-every 400 --eval-ctx 48 --ckpt-dir $RUN/ckpt --ckpt-every 200
for i in $(seq 1 300); do pgrep -f "29723 --nproc" >/dev/null || break; sleep 1; done
sleep 60; pkill -f "29723 --nproc"; wait; echo "done $(date +%T)" >&2
