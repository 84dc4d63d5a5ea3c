#!/bin/bash
# HANG (silent): srun -l style; samples are interleaved over 4 shard files (rank 1's DataLoader workers read
# shards 1 and 3) and each read takes a shared flock. After step 100 another process (a stale 'dataset
# repack' job) takes an exclusive flock on shard 3 and keeps it: rank 1's workers block, rank 0 waits in the
# DDP allreduce, nothing is printed. 170 s after the last line the ranks are SIGKILLed (like scancel).
# (In the kept run the script then waited on the flock holder and on rank 1's orphaned, flock-blocked
# DataLoader workers, which keep the output pipe open; they were killed by pid by hand afterwards.)
CASE=flock_silent_hang; . "$(dirname "$0")/common.sh"
mkdir -p data; for i in 0 1 2 3; do head -c 8192 /dev/urandom > data/part-$i.bin; done
echo '{"root": "'$RUN'/data", "shards": ["part-0.bin", "part-1.bin", "part-2.bin", "part-3.bin"]}' > data.json
srunl $G/loop14.py --steps 2000 --data-config data.json --interleave --flock --workers 2 --log-every 25 --ckpt-every 100 &
waitfor "step 100/2000" out.log 120
flock -x data/part-3.bin sleep 400 & F=$!
last=0; while true; do sleep 5; n=$(stat -c %Y out.log); [ $(( $(date +%s) - n )) -ge 170 ] && break; done
for r in 0 1; do kill -KILL $(rankpid loop14.py $r); done; kill $F; wait; echo "rc=$?" > rc.txt
