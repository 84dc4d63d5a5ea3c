#!/bin/bash
# torchrun 2 ranks, Megatron-style; before every validation a monitored_barrier (60 s); rank 1 first waits for an
# eval-shard manifest file that is never written (a bug in the data-prep config): rank 0's barrier times out naming rank 1.
CASE=c07; source /work/wt23b/tests/corpus/heldout23/gen_h23b/common.sh
$TR $T23 --fmt mega --steps 3000 --log-every 50 --ckpt-dir ck --ckpt-every 500 --resume --eval-every 700 --eval-batches 100 --barrier-timeout 60 --eval-manifest $RUN/valid/manifest.json > out.log 2>&1
echo "exit=$?"
