#!/bin/bash
# torchrun 2 ranks inside a private network namespace (unshare -n, lo up), MindSpore-style: after epoch 3 the
# namespace's loopback gets a tbf qdisc (rate 60mbit, burst 32k, latency 100ms) to the end (both ranks' gloo traffic
# goes over it).
CASE=a19; PORT=44619; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh
(unshare -n bash -c "ip link set lo up; exec nice -n 10 $V/python -m torch.distributed.run --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint localhost:$PORT $T --style mindspore --steps 3000 --epoch-steps 300 --log-every 100 --ckpt-dir ckpt --ckpt-every 600" > out.log 2>&1 &)
waitfor "epoch: 4 step: 100," out.log 300; P0=$(rankpid RANK=0)
nsenter -t $P0 -n tc qdisc add dev lo root tbf rate 60mbit burst 32k latency 100ms; log "tbf $P0"; nsenter -t $P0 -n tc -s qdisc show dev lo
waitgone 560
