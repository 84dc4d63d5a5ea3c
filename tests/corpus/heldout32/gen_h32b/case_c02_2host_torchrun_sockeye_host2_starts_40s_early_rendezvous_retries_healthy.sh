#!/bin/bash
# two namespace hosts, Sockeye-style; gpu-b32-02's torchrun is started 40 s before gpu-b32-01's (the rendezvous host):
# its agent retries connecting to gpu-b32-01:43682 until the store is up; then a normal run.
CASE=c02; PORT=43682; source /work/wt32b/tests/corpus/heldout32/gen_h32b/common.sh; source $G/net32.sh; netdown; netup
(TR2 2 $T --style sockeye --steps 3000 --log-every 100 --eval-every 1000 --ckpt-dir model --ckpt-every 1000 >> out.log 2>&1 &)
sleep 40; (TR2 1 $T --style sockeye --steps 3000 --log-every 100 --eval-every 1000 --ckpt-dir model --ckpt-every 1000 >> out.log 2>&1 &)
sleep 5; waitgone 400; sleep 5; for p in $(agentpids); do kill $p; done; netdown
