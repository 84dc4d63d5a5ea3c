#!/bin/bash
# torchrun 2 ranks, Lightning-style tqdm bar, --pg-timeout 60; rank 1 SIGSTOPped at step ~1500 and left stopped.
CASE=c07; PORT=37007; source /work/wt26b/tests/corpus/heldout26/gen_h26b/common.sh
(TR $T26 --style lightning --steps 5000 --log-every 50 --pg-timeout 60 > out.log 2>&1 &)
for i in $(seq 1 300); do grep -q "1[5-9][0-9][0-9]/5000" out.log && break; sleep 1; done
P=$(envpids RANK=1); kill -STOP $P; log "stopped $P"
for i in $(seq 1 100); do [ -z "$(envpids RANK=0)" ] && break; sleep 2; done; sleep 25
cp out.log kept.log; log copied; kill -CONT $P 2>/dev/null; sleep 5
