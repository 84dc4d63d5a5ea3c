#!/bin/bash
# torchrun 2 ranks, HF Trainer-style, DataLoader num_workers=2 (persistent); one DataLoader worker of rank 0 is SIGKILLed
# after step 800.
CASE=c19; PORT=38119; source /work/wt27b/tests/corpus/heldout27/gen_h27b/common.sh
(TR $T --style hf --steps 2400 --log-every 100 --workers 2 --ckpt-dir ck --ckpt-every 600 > out.log 2>&1 &)
waitfor "'epoch': " out.log 400; waitfor "loss': " out.log 400
for i in $(seq 1 300); do [ $(grep -c "'loss'" out.log) -ge 8 ] && break; sleep 1; done
R0=$(envpids RANK=0 | head -1); K=$(pgrep -P $(envpids RANK=0 | sort -n | head -1) | head -1)
log "rank0 pids $(envpids RANK=0 | tr '\n' ' ') worker $K"; kill -KILL $K; waitgone 200
