#!/bin/bash
# torchrun 2 ranks, torchtitan-style; a bug: only rank 0 joins the all_reduce of the eval loss (default 30-min pg timeout).
# Whatever follows the first eval at step 400 is what the log shows; after 150 s the case copies the log and kills it.
CASE=c11; source /work/wt24b/tests/corpus/heldout24/gen_h24b/common.sh
$TR $T24 --fmt titan --steps 2400 --log-every 50 --eval-every 400 --rank0-only-eval-reduce --ckpt-dir ck --ckpt-every 400 > out.log 2>&1 &
TRP=$!
waitfor "step:  400" out.log 300; sleep 150; cp out.log kept.log; echo "copied $(date -u +%T) quiet $(( $(date +%s) - $(stat -c %Y out.log) ))s"
kill $TRP; sleep 5; for p in $(envpids RANK=0) $(envpids RANK=1); do kill -9 $p; done; wait
