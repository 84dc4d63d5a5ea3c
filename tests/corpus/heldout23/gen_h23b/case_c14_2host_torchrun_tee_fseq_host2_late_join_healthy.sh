#!/bin/bash
# two namespace hosts, torchrun --tee 3, fairseq-style; host 2's agent starts 45 s after host 1's (its node came up
# late), the rendezvous waits and then the job trains to the end. Nothing else injected.
CASE=c14; source /work/wt23b/tests/corpus/heldout23/gen_h23b/common.sh; source $G/net23.sh
netdown; netup
(TR2 1 $T23 --fmt fseq --steps 2000 --epoch-steps 500 --log-every 50 --ckpt-dir ck --ckpt-every 500 --resume --eval-every 500 --eval-batches 200 >> out.log 2>&1 &)
sleep 45; (TR2 2 $T23 --fmt fseq --steps 2000 --epoch-steps 500 --log-every 50 --ckpt-dir ck2 --ckpt-every 500 --resume --eval-every 500 --eval-batches 200 >> out.log 2>&1 &)
waitfor "done training" out.log 400; for i in $(seq 1 30); do [ -z "$(pgrep -f 'rdzv-id l23bjob')" ] && break; sleep 2; done; cp out.log kept.log
netdown
