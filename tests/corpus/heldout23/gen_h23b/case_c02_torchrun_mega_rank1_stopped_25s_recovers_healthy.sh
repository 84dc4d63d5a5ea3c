#!/bin/bash
# torchrun 2 ranks, Megatron-style; rank 1 SIGSTOPped at iteration ~1200 for 25 s, then SIGCONT: a stall that recovers.
CASE=c02; source /work/wt23b/tests/corpus/heldout23/gen_h23b/common.sh
$TR $T23 --fmt mega --steps 3000 --log-every 50 --ckpt-dir ck --ckpt-every 1000 --resume > out.log 2>&1 &
TRP=$!
waitfor "iteration     1200/" out.log; P=$(envpids RANK=1); kill -STOP $P; echo "stopped $P $(date -u +%T)"
sleep 25; kill -CONT $P; echo "cont $(date -u +%T)"
wait $TRP; echo "exit=$?"
