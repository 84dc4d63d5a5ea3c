#!/bin/bash
# torchrun 2 ranks, HF Trainer-style, --pg-timeout 60; at step 900 rank 1 takes a rank-conditional branch (waits for a
# flag file that never appears) and stops calling collectives: rank 0's all-reduce times out after 60 s.
CASE=c07; PORT=38107; source /work/wt27b/tests/corpus/heldout27/gen_h27b/common.sh
(TR $T --style hf --steps 2400 --log-every 100 --ckpt-dir ck --ckpt-every 600 --rank-detour-at 900 --pg-timeout 60 > out.log 2>&1 &)
sleep 20; waitgone 400; sleep 2; P=$(envpids RANK=1); [ -n "$P" ] && kill $P; log done
