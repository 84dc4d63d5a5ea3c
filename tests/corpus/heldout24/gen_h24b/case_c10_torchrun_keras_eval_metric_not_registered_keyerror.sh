#!/bin/bash
# torchrun 2 ranks, Keras-style; config asks for eval metrics loss,ppl,bleu but 'bleu' is not in the metric table:
# KeyError at the first validation (end of epoch 1).
CASE=c10; source /work/wt24b/tests/corpus/heldout24/gen_h24b/common.sh
$TR $T24 --fmt keras --steps 2400 --epoch-steps 300 --log-every 50 --eval-every 300 --eval-metrics loss,ppl,bleu --ckpt-dir ck --ckpt-every 600 > out.log 2>&1
echo "exit=$?"
