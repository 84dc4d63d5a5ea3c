#!/bin/bash
# NETWORK: rank 1 reaches the TCPStore (hosted by rank 0) through a forwarder (proxy15.py) standing in for the network path;
# after step 100 the forwarder resets rank 1's store connections (TCP RST), so rank 1's next store heartbeat
# (every 10 steps) fails with ECONNRESET. srun -l style launch, CSV metrics on rank 0.
CASE=store_path_reset; source "$(dirname "$0")/common.sh"
$V/python $G/proxy15.py 29826 29825 & PX=$!
for r in 0 1; do SP=29825; [ $r = 1 ] && SP=29826
  ( MASTER_ADDR=127.0.0.1 MASTER_PORT=29825 STORE_PORT=$SP RANK=$r LOCAL_RANK=$r WORLD_SIZE=2 \
    nice -n 10 $V/python -u $G/t15.py --data $DATA --steps 220 --log-every 10 --heartbeat-every 10 2>&1 | sed -u "s/^/$r: /" >> out.log ) & done
waitfor "^0: 100," out.log 150 && kill -USR1 $PX
wait
echo "exit=$?" >&2
