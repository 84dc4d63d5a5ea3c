#!/bin/bash
# torchrun --nnodes 2 on two namespace hosts, fairseq-style; host 2's torchrun is started 25 s before host 1's (its
# rendezvous store is not up yet); nothing injected.
CASE=c19; source /work/wt26b/tests/corpus/heldout26/gen_h26b/common.sh; source /work/wt26b/tests/corpus/heldout26/gen_h26b/net26.sh
netdown; netup
(TR2 2 $T26 --style fairseq --steps 2000 --log-every 100 >> out.log 2>&1 &)
sleep 25; (TR2 1 $T26 --style fairseq --steps 2000 --log-every 100 >> out.log 2>&1 &)
sleep 5; for i in $(seq 1 200); do pgrep -f "rdzv-id l26bjob" >/dev/null || break; sleep 2; done; sleep 2
netdown
