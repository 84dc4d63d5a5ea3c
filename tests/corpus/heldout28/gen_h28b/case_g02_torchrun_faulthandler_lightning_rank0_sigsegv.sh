#!/bin/bash
# torchrun 2 ranks, 'python -X faulthandler', Lightning-like with validation and checkpoints; after step 900 rank 0 gets
# SIGSEGV from outside (no message of the program's own).
CASE=g02; PORT=39622; source /work/wt28b/tests/corpus/heldout28/gen_h28b/common.sh
(nice -n 10 $V/python -X faulthandler -m torch.distributed.run --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint localhost:$PORT --no-python $V/python -X faulthandler $T --style lightning --steps 2400 --eval-every 400 --ckpt-dir ck --ckpt-every 400 > out.log 2>&1 &)
sleep 20; waitfor "global step 800" out.log 400; sleep 4; P=$(rankpid RANK=0); kill -SEGV $P; log "segv $P"; waitgone 300
