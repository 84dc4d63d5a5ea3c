#!/bin/bash
# NETWORK: srun-style launch; at step ~350 the gloo data connections of rank 1 (not the c10d store's)
# are destroyed with `ss -K` (the kernel aborts them and sends RST to the peer), as a flapping link /
# middlebox reset would; both processes are alive when it happens.
CASE=net_conn_reset; . "$(dirname "$0")/common.sh"
PORT=29657 srun2 $G/lm13.py --steps 900 --log-every 25 --ckpt-every 200 & L=$!
$G/waitstep.sh "step   350/" 120; P=$($G/rankpid.sh 1)
ss -tnpH state established | grep "pid=$P," | grep -v ":29657 " | awk '{print $3}' | while read src; do
  ss -K -tn "src $src" > /dev/null; done
ss -tnpH | grep "pid=$P," > killed_check.txt
wait $L; echo "done" > rc.txt
