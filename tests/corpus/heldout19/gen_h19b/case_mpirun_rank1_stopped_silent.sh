#!/bin/bash
# HANG: mpirun, 2 ranks of m19.py (batch 128, hidden 1024). During epoch 6, rank 1 is SIGSTOPped (frozen); rank 0
# blocks in MPI_Allreduce and nothing more is printed. The log is copied after 200 s of silence, then the run is killed.
CASE=mpi_silent; source "$(dirname "$0")/common.sh"
$MPI $M19 --epochs 20 --ckpt-dir ckpt > out.log 2>&1 &
waitfor "Epoch 6/20" out.log; sleep 3
P=$(envpids m19.py OMPI_COMM_WORLD_RANK=1); echo "stop $P $(date +%T)" >&2; kill -STOP $P
sleep 200; cp out.log kept.log; echo "copied $(date +%T), last write $(stat -c %y out.log)" >&2
kill -9 $P; wait; echo "exit=$?" >&2
