#!/bin/bash
# torchrun 2 ranks, Flair-style (logging to stdout): stdout piped through 'tee -a out.log' (stderr appended to out.log
# directly); the tee is SIGKILLed in epoch 2 -> logging's handler errors ('--- Logging error ---', BrokenPipeError) on
# stderr for every record, training goes on to the end.
CASE=a14; PORT=44614; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh
(TR $T --style flair --steps 1600 --epoch-steps 400 --log-every 100 --eval-every 1 --ckpt-dir resources/taggers/mlp48 --ckpt-every 400 2>>out.log | tee -a out.log > /dev/null &)
waitfor "epoch 2 - iter 200/" out.log 300
for p in $(pgrep -x tee); do [ "$(readlink /proc/$p/cwd)" = "$RUN" ] && kill -KILL $p && log "killed tee $p"; done
waitgone 200
