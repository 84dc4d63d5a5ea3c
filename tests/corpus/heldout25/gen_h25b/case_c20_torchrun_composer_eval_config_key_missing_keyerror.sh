#!/bin/bash
# torchrun 2 ranks, Composer-style; the eval config string says 'label_smoothing=0.1' but the code reads the key
# 'eval_label_smoothing': KeyError at the first evaluation (batch 500).
CASE=c20; source /work/wt25b/tests/corpus/heldout25/gen_h25b/common.sh
($TR $T25 --style composer --steps 2000 --log-every 100 --eval-every 500 --label-smoothing-cfg label_smoothing=0.1 > out.log 2>&1 &)
sleep 10; for i in $(seq 1 200); do [ -z "$(envpids RANK=0)$(envpids RANK=1)" ] && break; sleep 2; done; sleep 5
