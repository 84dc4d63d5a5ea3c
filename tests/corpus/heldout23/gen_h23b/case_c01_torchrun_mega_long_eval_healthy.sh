#!/bin/bash
# torchrun 2 ranks, Megatron-style lines; nothing injected: no checkpoint to resume from (WARNING), 1500-batch
# validations every 1000 iterations, checkpoints every 1000.
CASE=c01; source /work/wt23b/tests/corpus/heldout23/gen_h23b/common.sh
$TR $T23 --fmt mega --steps 3000 --log-every 50 --ckpt-dir ck --ckpt-every 1000 --resume --eval-every 1000 --eval-batches 1500 > out.log 2>&1
echo "exit=$?"
