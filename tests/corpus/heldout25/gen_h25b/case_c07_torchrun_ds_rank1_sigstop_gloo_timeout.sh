#!/bin/bash
# torchrun 2 ranks, DeepSpeed-style, --pg-timeout 60; at step ~1000 rank 1 is SIGSTOPped (and left stopped): rank 0's
# all-reduce times out after 60 s.
CASE=c07; source /work/wt25b/tests/corpus/heldout25/gen_h25b/common.sh
($TR $T25 --style ds --steps 4000 --log-every 100 --pg-timeout 60 > out.log 2>&1 &)
waitfor "steps: 1000 " out.log 300
P=$(envpids RANK=1); kill -STOP $P; echo "stopped $P $(date -u +%T)"
for i in $(seq 1 100); do [ -z "$(envpids RANK=0)" ] && break; sleep 2; done; sleep 20
cp out.log kept.log; echo "copied $(date -u +%T)"; kill -CONT $P 2>/dev/null; sleep 5
