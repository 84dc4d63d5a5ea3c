#!/bin/bash
# torchrun 2 ranks, Ultralytics-YOLO-classify style, 2 persistent DataLoader workers per rank; in epoch 5 one of rank
# 1's workers is SIGKILLed from outside -> 'DataLoader worker (pid N) is killed by signal: Killed.'
CASE=a13; PORT=42613; source /work/wt31b/tests/corpus/heldout31/gen_h31b/common.sh
(TR $T --style yolo --steps 4000 --log-every 50 --workers 2 --persistent --eval-every 1 --ckpt-dir $RUN/runs/classify/train --ckpt-every 312 > out.log 2>&1 &)
waitfor " 5/13 " out.log 300; sleep 3; P=$(rankpid RANK=1); W=$(workerpids $P | head -1); kill -9 $W; log "killed worker $W of $P"
waitgone 200; sleep 2; for p in $(agentpids); do kill $p; done
