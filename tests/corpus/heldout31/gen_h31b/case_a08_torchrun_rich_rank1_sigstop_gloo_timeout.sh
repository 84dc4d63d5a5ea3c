#!/bin/bash
# torchrun 2 ranks, rich-console logging (RichHandler layout + progress lines), --pg-timeout 60; after step 1500 rank 1
# is SIGSTOPped (and continued only after rank 0 has timed out) -> rank 0's gloo recv timeout.
CASE=a08; PORT=42608; source /work/wt31b/tests/corpus/heldout31/gen_h31b/common.sh
(TR $T --style rich --steps 6000 --log-every 100 --pg-timeout 60 --ckpt-dir $RUN/ckpt --ckpt-every 1000 > out.log 2>&1 &)
waitfor "step 1500/" out.log 300; P=$(rankpid RANK=1); kill -STOP $P; log "stopped $P"
waitfor "Timed out\|timeout" out.log 150; sleep 45; kill -CONT $P 2>/dev/null; log cont; waitgone 120; sleep 2; for p in $(agentpids); do kill $p; done
