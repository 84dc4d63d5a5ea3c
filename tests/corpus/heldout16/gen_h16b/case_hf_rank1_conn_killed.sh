#!/bin/bash
# NETWORK: HF Trainer DDP (torchrun, 2 ranks, gloo). After the 8th log dict, every established TCP connection of
# rank 1 except those to the torchrun rendezvous store is destroyed with `ss -K` (the kernel aborts them and sends RST
# to the peer), as a flapping link or a middlebox dropping the flows would.
CASE=hf_conn_killed; source "$(dirname "$0")/common.sh"
$TR $G/hf16.py --steps 600 --log-steps 20 > out.log 2>&1 & L=$!
for i in $(seq 1 200); do [ "$(grep -c "^{'loss'" out.log)" -ge 8 ] && break; sleep 1; done
P=$(rankpid hf16.py 1)
STORE=$(grep -o "rdzv_endpoint=[^ ]*" /dev/null; pgrep -af "torch.distributed.run" | head -1 >/dev/null)
ss -tnpH state established | grep "pid=$P," | awk '{print $3" "$4}' | while read src dst; do
  ss -K -tn "src $src" > /dev/null; done
wait $L; echo "exit=$?" >&2
