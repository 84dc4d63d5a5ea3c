#!/bin/bash
# torchrun 2 ranks, Accelerate-logger style; after step 900 rank 1 gets SIGUSR1 (no handler: the process dies).
CASE=a06; PORT=41606; source /work/wt30b/tests/corpus/heldout30/gen_h30b/common.sh
(TR $T --style accelerate --steps 3000 --log-every 50 --ckpt-dir ck --ckpt-every 500 > out.log 2>&1 &)
waitfor "step 900:" out.log 300; P=$(rankpid RANK=1); kill -USR1 $P; log "usr1 $P"; waitgone 200
