#!/bin/bash
# torchrun 2 ranks, fairseq-style logging; rank 1 gets SIGSEGV (kill -SEGV) after update ~1000.
CASE=c02; PORT=37002; source /work/wt26b/tests/corpus/heldout26/gen_h26b/common.sh
(TR $T26 --style fairseq --steps 4000 --log-every 100 --ckpt-dir ck --ckpt-every 500 > out.log 2>&1 &)
waitfor "num_updates=1000," out.log 300
P=$(envpids RANK=1); kill -SEGV $P; log "SEGV $P"
for i in $(seq 1 60); do [ -z "$(envpids RANK=0)" ] && break; sleep 2; done; sleep 5
