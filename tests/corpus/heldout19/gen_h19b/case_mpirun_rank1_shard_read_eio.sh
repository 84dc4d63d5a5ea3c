#!/bin/bash
# STORAGE: mpirun, 2 ranks of m19.py; inject19.so in both ranks, armed for rank 1: from epoch 4 on, every read()
# of rank 1's training shards fails with EIO (a failed disk/filesystem under rank 1's data). No retries configured,
# so the OSError ends rank 1 and `python -m mpi4py` aborts the job.
CASE=mpi_eio; source "$(dirname "$0")/common.sh"
T=$RUN/eio.trigger
$MPI -x LD_PRELOAD=/work/lab19b/inject19.so -x INJ_RANK=1 -x INJ_PATH=/work/lab19b/data/rank1/ -x INJ_ERRNO=5 \
  -x INJ_TRIGGER=$T $M19 --epochs 12 --ckpt-dir ckpt > out.log 2>&1 &
waitfor "Epoch 4/12" out.log; sleep 2; touch $T; echo "trigger on $(date +%T)" >&2
wait; echo "exit=$? $(date +%T)" >&2; rm -f $T
