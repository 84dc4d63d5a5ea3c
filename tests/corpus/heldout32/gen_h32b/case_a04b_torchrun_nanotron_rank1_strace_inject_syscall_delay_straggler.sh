#!/bin/bash
# (a04 redone: a plain 'strace -f' slowed rank 1 too little to show) torchrun 2 ranks, Nanotron-style; after iteration
# 1500 strace is attached to rank 1 with a 2 ms delay injected on the exit of every read/write/sendmsg/recvmsg/sendto/
# recvfrom call of all its threads, until the run ends.
CASE=a04b; PORT=43618; source /work/wt32b/tests/corpus/heldout32/gen_h32b/common.sh
(TR $T --style nanotron --steps 4000 --log-every 100 --eval-every 2000 --ckpt-dir checkpoints --ckpt-every 2000 > out.log 2>&1 &)
waitfor "iteration: 1500 /" out.log 300; P1=$(rankpid RANK=1); strace -f -qq -o /dev/null -e trace=read,write,sendmsg,recvmsg,sendto,recvfrom -e inject=read,write,sendmsg,recvmsg,sendto,recvfrom:delay_exit=2000 -p $P1 & ST=$!; log "strace $ST on $P1"
waitgone 500; kill $ST 2>/dev/null
