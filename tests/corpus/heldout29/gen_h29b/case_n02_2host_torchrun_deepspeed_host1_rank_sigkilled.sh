#!/bin/bash
# two namespace hosts, torchrun --nnodes 2, DeepSpeed-like lines from both ranks, checkpoints every 400; after step
# 900 the rank-0 worker on gpu-b29-01 is SIGKILLed (no reason printed anywhere).
CASE=n02; PORT=40682; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh; source $G/net29.sh; netdown; netup
(TR2 1 $T --style deepspeed --steps 3000 --log-every 50 --ckpt-dir ck --ckpt-every 400 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style deepspeed --steps 3000 --log-every 50 --ckpt-dir ck --ckpt-every 400 >> out.log 2>&1 &)
waitfor "Rank 0\] step=900," out.log 400; P=$(rankpid RANK=0); kill -KILL $P; log "killed $P"
waitgone 300; sleep 20; for p in $(agentpids); do kill $p; done; sleep 3; netdown
