#!/bin/bash
# torchrun 2 ranks, Keras-style epochs; each checkpoint carries a 400 MB extra tensor and is fsynced: long quiet saves.
CASE=c02; source /work/wt24b/tests/corpus/heldout24/gen_h24b/common.sh
$TR $T24 --fmt keras --steps 2400 --epoch-steps 300 --log-every 50 --eval-every 300 --ckpt-dir ck --ckpt-every 600 --ckpt-pad-mb 400 > out.log 2>&1
echo "exit=$?"; rm -rf ck
