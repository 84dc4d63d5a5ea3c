#!/bin/bash
# torchrun 2 ranks with --tee 3 (per-rank [default0]:/[default1]: prefixes), fairseq-style; rank 1 gets SIGILL
# (kill -ILL) at num_updates ~900.
CASE=c12; source /work/wt23b/tests/corpus/heldout23/gen_h23b/common.sh
$TR --tee 3 --log-dir $RUN/tlogs $T23 --fmt fseq --steps 3000 --epoch-steps 500 --log-every 50 --ckpt-dir ck --ckpt-every 500 --resume > out.log 2>&1 &
TRP=$!
waitfor "num_updates=900," out.log; P=$(envpids RANK=1); kill -ILL $P; echo "ill $P $(date -u +%T)"
wait $TRP; echo "exit=$?"
