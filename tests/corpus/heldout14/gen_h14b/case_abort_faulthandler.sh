#!/bin/bash
# UNKNOWN: srun -l style launch with faulthandler enabled; rank 1 receives SIGABRT from outside at ~step 150
# (no message says why), rank 0 then loses its gloo peer.
CASE=abort_faulthandler; . "$(dirname "$0")/common.sh"
srunl $G/loop14.py --steps 600 --faulthandler --log-every 25 --ckpt-every 100 --img 48 &
waitfor "step 150/600" out.log 120; kill -ABRT $(rankpid loop14.py 1); wait; echo "rc=$?" > rc.txt
