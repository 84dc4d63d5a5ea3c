#!/bin/bash
# torchrun 2 ranks, DeepSpeed-style; checkpoints with 400 MB of optimizer padding (fsynced, several seconds each) every
# 700 steps; nothing injected; completes.
CASE=c18; source /work/wt25b/tests/corpus/heldout25/gen_h25b/common.sh
($TR $T25 --style ds --steps 2100 --log-every 100 --ckpt-dir ck --ckpt-every 700 --ckpt-pad-mb 400 > out.log 2>&1 &)
sleep 10; for i in $(seq 1 200); do [ -z "$(envpids RANK=0)" ] && break; sleep 2; done; sleep 3; rm -rf ck
