#!/bin/bash
# torchrun 2 ranks, Keras-like epoch lines, DataLoader num_workers=2; after epoch 3 both DataLoader workers of rank 1
# are SIGSTOPped for 0.35 s of every 0.4 s (SIGSTOP/SIGCONT duty cycle) until the run ends: rank 1 starves for data.
CASE=k14; PORT=40614; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh
(TR $T --style keras --steps 2000 --epoch-steps 200 --log-every 50 --workers 2 --ckpt-dir ck --ckpt-every 400 > out.log 2>&1 &)
waitfor "^Epoch 4/" out.log 400; R=$(rankpid RANK=1); W=$(for p in $(envpids RANK=1); do [ $p != $R ] && echo $p; done); log "rank1 $R workers $W"
while [ -n "$(mypids)" ]; do kill -STOP $W 2>/dev/null; sleep 0.35; kill -CONT $W 2>/dev/null; sleep 0.05; done; log done
