#!/bin/bash
# two namespace hosts, torchrun --nnodes 2, plain prints, --pg-timeout 60; after step 700 host 2 gets a blackhole route
# to host 1 (ip route add blackhole 10.228.7.11/32), left in place until the run ends.
CASE=f02; PORT=39682; source /work/wt28b/tests/corpus/heldout28/gen_h28b/common.sh; source $G/net28.sh; netdown; netup
(TR2 1 $T --style plain --steps 2400 --log-every 50 --pg-timeout 60 >> out.log 2>&1 &)
sleep 2; (TR2 2 $T --style plain --steps 2400 --log-every 50 --pg-timeout 60 >> out.log 2>&1 &)
waitfor "step 700/" out.log 400; ip -n l28bh2 route add blackhole 10.228.7.11/32; log blackhole
waitgone 400; log gone; sleep 60; for p in $(agentpids); do kill $p; done; sleep 3; netdown
