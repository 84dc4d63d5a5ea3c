#!/bin/bash
# NODE: torchrun, 2 processes, HF Trainer (GPT-2 from config) with 2 DataLoader workers per rank, batches of 16x512
# tokens passed through /dev/shm. The run has its own mount namespace with /dev/shm a 16 MiB tmpfs; after the step-40
# log line, a 16 MiB file is written into that /dev/shm (dd, until full), as a neighbour process leaving its data in
# the node's /dev/shm would, so the workers' next shared-memory batches find no space.
# (Named for the bus error that was expected; the kept run got ENOSPC from a worker's shm allocation and then hung.)
CASE=hf_shm_filled; source "$(dirname "$0")/common.sh"
unshare -m bash -c "mount -t tmpfs -o size=16m tmpfs /dev/shm; exec $TR $G/h17.py --steps 300 --workers 2" > out.log 2>&1 & L=$!
waitfor "'epoch'" out.log 400; sleep 1
for i in $(seq 1 60); do grep -c "'epoch'" out.log | grep -qx 4 && break; sleep 1; done
P=$(envpids h17.py RANK=0 | head -1)
nsenter --mount=/proc/$P/ns/mnt dd if=/dev/zero of=/dev/shm/neighbour.dat bs=1M count=16 2>&1 | tail -1 >&2
wait $L; echo "exit=$?" >&2
