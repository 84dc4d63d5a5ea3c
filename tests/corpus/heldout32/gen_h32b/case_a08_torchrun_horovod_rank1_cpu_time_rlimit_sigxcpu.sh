#!/bin/bash
# torchrun 2 ranks, Horovod-style (mpirun --tag-output prefixes); in epoch 3 rank 1's RLIMIT_CPU is set (prlimit) to
# its used CPU time + 15 s -> SIGXCPU when it is reached.
CASE=a08; PORT=43608; source /work/wt32b/tests/corpus/heldout32/gen_h32b/common.sh
(TR $T --style horovod --steps 5000 --epoch-steps 400 --log-every 50 --eval-every 1 --ckpt-dir ckpt --ckpt-every 800 > out.log 2>&1 &)
waitfor "Train Epoch: 3 \[4800" out.log 300; P1=$(rankpid RANK=1); set -- $(cut -d' ' -f14,15 /proc/$P1/stat); C=$(( ($1 + $2) / 100 + 15 ))
prlimit --pid $P1 --cpu=$C:$((C + 30)); log "cpu limit $C on $P1"; prlimit --pid $P1 --cpu
waitgone 300
