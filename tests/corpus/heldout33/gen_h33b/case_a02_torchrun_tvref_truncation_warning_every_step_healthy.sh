#!/bin/bash
# torchrun 2 ranks, torchvision-references-style (MetricLogger): a truncation warning printed by both ranks every step
# (a log flood); nothing else injected (healthy).
CASE=a02; PORT=44602; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh
(TR $T --style tvref --steps 900 --epoch-steps 300 --log-every 100 --eval-every 1 --ckpt-dir out --ckpt-every 300 --flood > out.log 2>&1 &)
sleep 5; waitgone 500
