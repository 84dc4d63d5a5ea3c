#!/bin/bash
# APPLICATION: mpirun, 2 ranks of m19.py launched with a config typo: --label-smoothing 0.1O (letter O for zero);
# float() of it raises ValueError on both ranks before training and `python -m mpi4py` aborts the job.
CASE=mpi_typo; source "$(dirname "$0")/common.sh"
$MPI $M19 --epochs 10 --label-smoothing 0.1O --ckpt-dir ckpt > out.log 2>&1
echo "exit=$?" >&2
