#!/bin/bash
# torchrun 2 ranks, plain prints, --pg-timeout 90; rank 0 appends metrics rows to a CSV on an ext4 loop fs which is
# frozen (fsfreeze -f) after step 600: rank 0 blocks in write(), rank 1's gloo collective times out. Thawed at the end.
CASE=k07; PORT=40607; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh
M=$(mkloop k07 32)
(TR $T --style plain --steps 3000 --log-every 50 --pg-timeout 90 --metrics-file $M/metrics.csv > out.log 2>&1 &)
waitfor "step 600/" out.log 300; fsfreeze -f $M; log frozen
waitfor "imed out\|timeout" out.log 300; log "timeout shown"; sleep 30; fsfreeze -u $M; waitgone 120; sleep 2; for p in $(agentpids); do kill $p; done; rmloop k07
