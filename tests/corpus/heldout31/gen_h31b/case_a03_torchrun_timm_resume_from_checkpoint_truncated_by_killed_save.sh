#!/bin/bash
# torchrun 2 ranks, timm train.py style. Run 1 (not kept, first.log): checkpoints every 300 steps with 60 MiB of padding;
# while checkpoint-900 is being written every process of the run is SIGKILLed (as when a node dies mid-save), leaving
# a partial file. Run 2 (kept, out.log): the same command with --resume picks the newest checkpoint, the partial one.
CASE=a03; PORT=42603; source /work/wt31b/tests/corpus/heldout31/gen_h31b/common.sh
C=$RUN/output/train/20261125-mlp48
(TR $T --style timm --steps 6000 --log-every 50 --ckpt-dir $C --ckpt-every 300 --ckpt-pad-mb 60 --eval-every 1 > first.log 2>&1 &)
for i in $(seq 1 600); do [ -e $C/checkpoint-900.pth.tar ] && [ $(stat -c %s $C/checkpoint-900.pth.tar) -gt 20000000 ] && break; sleep 0.1; done
for p in $(agentpids) $(mypids); do kill -9 $p; done; log "killed during save: $(ls -l $C)"; sleep 3
TR $T --style timm --steps 6000 --log-every 50 --ckpt-dir $C --ckpt-every 300 --ckpt-pad-mb 60 --eval-every 1 --resume > out.log 2>&1
