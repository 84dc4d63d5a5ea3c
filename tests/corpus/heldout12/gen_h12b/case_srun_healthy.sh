#!/bin/bash
# srun-style launch (no torchrun): two tasks started directly with RANK/WORLD_SIZE/MASTER_ADDR set,
# both appending to one output file as srun does; DDP, 400 steps, DCP saves every 100; no fault.
CASE=srun_healthy; . "$(dirname "$0")/common.sh"
for r in 0 1; do
  MASTER_ADDR=127.0.0.1 MASTER_PORT=29793 RANK=$r LOCAL_RANK=$r WORLD_SIZE=2 OMP_NUM_THREADS=1 \
    nice -n 10 $V/python -u $G/titan_lite.py --parallel ddp --steps 400 --log-freq 20 --ckpt-interval 100 --ckpt-folder ckpt >> out.log 2>&1 &
done
wait; echo "done" > rc.txt
