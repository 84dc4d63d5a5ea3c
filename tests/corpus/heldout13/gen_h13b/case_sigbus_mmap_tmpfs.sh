#!/bin/bash
# NODE: tokens are read through np.memmap from a node-local tmpfs; at step ~300 the backing file is
# truncated under the job (as when node-local scratch is lost), so the next page access raises
# SIGBUS; PYTHONFAULTHANDLER=1 prints the fatal-signal report.
CASE=sigbus_mmap_tmpfs; . "$(dirname "$0")/common.sh"
mkdir -p scratch && mount -t tmpfs -o size=64m tmpfs scratch && cp tokens.bin scratch/
PYTHONFAULTHANDLER=1 $TR $G/lm13.py --steps 800 --log-every 25 --mmap --data scratch/tokens.bin > out.log 2>&1 & L=$!
$G/waitstep.sh "step   300/" 120 && truncate -s 409600 scratch/tokens.bin
wait $L; echo "rc=$?" > rc.txt; umount scratch
