#!/bin/bash
# torchrun 2 ranks, Composer-style; a metrics push endpoint that is not listening (127.0.0.1:9, connection refused:
# WARNINGs, retried, dropped) and a 1500-batch cache warm-up before batch 1 (slow first step); nothing injected; completes.
CASE=c16; source /work/wt25b/tests/corpus/heldout25/gen_h25b/common.sh
($TR $T25 --style composer --steps 2000 --log-every 200 --metrics-url http://127.0.0.1:9/push --warmup-prefetch 1500 --ckpt-dir ck --ckpt-every 1000 > out.log 2>&1 &)
sleep 10; for i in $(seq 1 200); do [ -z "$(envpids RANK=0)" ] && break; sleep 2; done; sleep 3
