#!/bin/bash
# torchrun 2 ranks, Catalyst-style, --pg-timeout 60: in epoch 3 gdb attaches to rank 1 in batch mode and sleeps
# (the tracee stays stopped while attached) for 150 s, then detaches.
CASE=a18; PORT=44618; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh
(TR $T --style catalyst --steps 3000 --epoch-steps 300 --log-every 50 --eval-every 1 --ckpt-dir logs --ckpt-every 600 --pg-timeout 60 > out.log 2>&1 &)
waitfor "train (2/10)" out.log 300; sleep 2; P1=$(rankpid RANK=1)
if which gdb >/dev/null; then timeout 170 gdb -p $P1 -batch -ex "shell sleep 150" -ex detach > gdb.log 2>&1 & else timeout 170 strace -p $P1 -e trace=none -e inject=all:delay_enter=200000000 > gdb.log 2>&1 & fi; log "attached $P1"
waitgone 300
