#!/bin/bash
# torchrun 2 ranks, JSON-lines metrics; at step ~1200 rank 1 is SIGSTOPped for 8 s, then SIGCONTed; nothing else.
CASE=c20; PORT=37020; source /work/wt26b/tests/corpus/heldout26/gen_h26b/common.sh
(TR $T26 --style jsonl --steps 2500 --log-every 100 --ckpt-dir ck --ckpt-every 1000 > out.log 2>&1 &)
waitfor '"rank": 1, "step": 1200,' out.log 300
P=$(envpids RANK=1); kill -STOP $P; log "stopped $P"; sleep 8; kill -CONT $P; log cont
for i in $(seq 1 200); do [ -z "$(envpids RANK=0)$(envpids RANK=1)" ] && break; sleep 2; done; sleep 3
