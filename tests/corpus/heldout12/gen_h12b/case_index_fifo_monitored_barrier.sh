#!/bin/bash
# Each rank loads a per-rank sample index (.npy) before training, then a monitoredBarrier
# (60 s). Rank 1's index path is a named pipe with no writer, so its open() blocks in the kernel
# as a read on a stalled file system would.
CASE=index_fifo_monitored_barrier; . "$(dirname "$0")/common.sh"
$V/python -c "import numpy as np; np.save('index_0.npy', np.arange(200000))"
mkfifo index_1.npy
$TR $G/titan_lite.py --parallel ddp --steps 100 --index-file 'index_{rank}.npy' --barrier-timeout 60 > out.log 2>&1
echo "rc=$?" > rc.txt
