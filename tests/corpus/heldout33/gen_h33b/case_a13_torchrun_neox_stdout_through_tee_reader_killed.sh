#!/bin/bash
# torchrun 2 ranks, GPT-NeoX-style: stdout piped through 'tee -a out.log' (stderr appended to out.log directly); the
# tee is SIGKILLed after iteration 1500, so the next print to stdout hits a pipe with no reader.
CASE=a13; PORT=44613; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh
(TR $T --style neox --steps 4000 --epoch-steps 500 --log-every 100 --eval-every 1 --ckpt-dir checkpoints --ckpt-every 1000 2>>out.log | tee -a out.log > /dev/null &)
waitfor "iteration     1500/" out.log 300
for p in $(pgrep -x tee); do [ "$(readlink /proc/$p/cwd)" = "$RUN" ] && kill -KILL $p && log "killed tee $p"; done
waitgone 200
