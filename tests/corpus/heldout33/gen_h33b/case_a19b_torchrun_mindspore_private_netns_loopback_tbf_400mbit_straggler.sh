#!/bin/bash
# a19 redone with a burst above lo's 64 KiB MTU: torchrun 2 ranks inside a private network namespace (unshare -n, lo
# up), MindSpore-style: after 'epoch: 4 step: 100' the namespace's loopback gets a tbf qdisc (rate 400mbit, burst 256k,
# latency 100ms) to the end.
CASE=a19b; PORT=44639; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh
(unshare -n bash -c "ip link set lo up; exec nice -n 10 $V/python -m torch.distributed.run --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint localhost:$PORT $T --style mindspore --steps 2400 --epoch-steps 300 --log-every 100 --ckpt-dir ckpt --ckpt-every 600" > out.log 2>&1 &)
waitfor "epoch: 4 step: 100," out.log 300; P0=$(rankpid RANK=0)
nsenter -t $P0 -n tc qdisc add dev lo root tbf rate 400mbit burst 256k latency 100ms; log "tbf $P0"; nsenter -t $P0 -n tc -s qdisc show dev lo
waitgone 500
