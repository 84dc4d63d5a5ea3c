#!/bin/bash
# UNKNOWN: mpirun, 2 ranks of m19.py (mpi4py Allreduce, Keras-style epoch lines). During epoch 5, rank 1 is
# SIGKILLed (no message from the process itself); mpirun reports the signal and tears the job down.
CASE=mpi_sigkill; source "$(dirname "$0")/common.sh"
$MPI $M19 --epochs 20 --ckpt-dir ckpt > out.log 2>&1 &
waitfor "Epoch 5/20" out.log; sleep 4
P=$(envpids m19.py OMPI_COMM_WORLD_RANK=1); echo "kill -9 $P" >&2; kill -9 $P
wait; echo "exit=$?" >&2
