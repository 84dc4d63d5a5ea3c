#!/bin/bash
# torchrun 2 ranks, loguru; rank 1 SIGSTOPped after step 700 (default 30-min gloo timeout): the log goes silent;
# out.log copied to kept.log after 170 s of silence, then everything killed.
CASE=torchrun_loguru_sigstop; source /work/wt22b/tests/corpus/heldout22/gen_h22b/common.sh
$TR $T22 --fmt loguru --steps 3000 --log-every 50 --ckpt-dir ck --ckpt-every 400 > out.log 2>&1 &
TRP=$!
waitfor "step 700/" out.log; P=$(envpids t22.py RANK=1); kill -STOP $P; echo "stopped $P $(date -u +%T)"
while [ $(quiet out.log) -lt 170 ]; do sleep 2; done
cp out.log kept.log; echo "copied $(date -u +%T) quiet=$(quiet out.log)"
kill -CONT $P; kill $TRP; sleep 3; pkill -9 -P $TRP 2>/dev/null; for q in $(envpids t22.py RANK=0) $(envpids t22.py RANK=1); do kill -9 $q; done; wait
