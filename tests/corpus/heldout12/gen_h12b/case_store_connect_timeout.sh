#!/bin/bash
# srun-style launch (no torchrun): this task is RANK=1 of WORLD_SIZE=2; MASTER_ADDR:MASTER_PORT
# is where rank 0's TCPStore should be, but rank 0 never started; init timeout 45 s.
CASE=store_connect_timeout; . "$(dirname "$0")/common.sh"
MASTER_ADDR=127.0.0.1 MASTER_PORT=29787 RANK=1 LOCAL_RANK=0 WORLD_SIZE=2 \
  nice -n 10 $V/python $G/titan_lite.py --steps 100 --pg-timeout 45 > out.log 2>&1
echo "rc=$?" > rc.txt
