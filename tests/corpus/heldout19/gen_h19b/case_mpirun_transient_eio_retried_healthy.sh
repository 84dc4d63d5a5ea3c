#!/bin/bash
# NONE: mpirun, 2 ranks of m19.py with --read-retries 5 (0.5 s apart); inject19.so armed for rank 1 fails its shard
# reads with EIO for 1.2 s, 2 s after the `Epoch 3/10` header and again 2 s after `Epoch 7/10` (epochs took ~1 s, so
# the glitches landed in epochs 6 and 8); the retries succeed and the run finishes.
CASE=mpi_eio_ok; source "$(dirname "$0")/common.sh"
T=$RUN/eio.trigger
$MPI -x LD_PRELOAD=/work/lab19b/inject19.so -x INJ_RANK=1 -x INJ_PATH=/work/lab19b/data/rank1/ -x INJ_ERRNO=5 \
  -x INJ_TRIGGER=$T $M19 --epochs 10 --read-retries 5 --ckpt-dir ckpt > out.log 2>&1 &
waitfor "Epoch 3/10" out.log; sleep 2; touch $T; sleep 1.2; rm -f $T; echo "glitch 1 $(date +%T)" >&2
waitfor "Epoch 7/10" out.log; sleep 2; touch $T; sleep 1.2; rm -f $T; echo "glitch 2 $(date +%T)" >&2
wait; echo "exit=$? $(date +%T)" >&2
