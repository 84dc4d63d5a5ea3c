#!/bin/bash
# two namespace hosts, torchrun (1 proc each), plain print lines; at step 1000 one batch has shuffled labels and x8
# inputs (a bad batch): the loss spikes and recovers; completes.
CASE=c19; source /work/wt25b/tests/corpus/heldout25/gen_h25b/common.sh; source $G/net25.sh
netdown; netup
(TR2 1 $T25 --style plain --steps 2000 --log-every 50 --spike-at 1000 --ckpt-dir ck1 --ckpt-every 1000 >> out.log 2>&1 &)
sleep 1; (TR2 2 $T25 --style plain --steps 2000 --log-every 50 --spike-at 1000 --ckpt-dir ck2 --ckpt-every 1000 >> out.log 2>&1 &)
for i in $(seq 1 150); do [ -z "$(pgrep -f 'rdzv-id l25bjob')" ] && break; sleep 3; done
sleep 2; netdown
