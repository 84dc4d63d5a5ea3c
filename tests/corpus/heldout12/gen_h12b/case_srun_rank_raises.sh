#!/bin/bash
# srun-style launch (no torchrun): two tasks started directly with RANK/WORLD_SIZE/MASTER_ADDR set,
# both writing to one output file as srun does. Each loads its per-rank sample index before a
# monitoredBarrier; rank 1's index was written as an object array (pickled), which np.load refuses.
CASE=srun_rank_raises; . "$(dirname "$0")/common.sh"
$V/python -c "import numpy as np; np.save('index_0.npy', np.arange(200000)); np.save('index_1.npy', np.array([list(range(5)), [1, 2]], dtype=object), allow_pickle=True)"
for r in 0 1; do
  MASTER_ADDR=127.0.0.1 MASTER_PORT=29791 RANK=$r LOCAL_RANK=$r WORLD_SIZE=2 OMP_NUM_THREADS=1 \
    nice -n 10 $V/python -u $G/titan_lite.py --parallel ddp --steps 150 --index-file 'index_{rank}.npy' --barrier-timeout 60 >> out.log 2>&1 &
done
wait; echo "done" > rc.txt
