#!/bin/bash
# torchrun 2 ranks, plain print lines; at step ~900 rank 1 is SIGKILLed (as the kernel's OOM killer would do, but with
# nothing in the job's output saying why): torchrun tears the job down.
CASE=c21; source /work/wt25b/tests/corpus/heldout25/gen_h25b/common.sh
($TR $T25 --style plain --steps 3000 --log-every 100 --ckpt-dir ck --ckpt-every 500 > out.log 2>&1 &)
waitfor "step=900/" out.log 300
P=$(envpids RANK=1); kill -KILL $P; echo "killed $P $(date -u +%T)"
for i in $(seq 1 100); do [ -z "$(envpids RANK=0)" ] && break; sleep 2; done; sleep 10
