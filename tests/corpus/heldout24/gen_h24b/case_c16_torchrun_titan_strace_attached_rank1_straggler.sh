#!/bin/bash
# torchrun 2 ranks, torchtitan-style; after step ~600 `strace -f` is attached to rank 1 (every syscall stops the
# rank, as a debugging session left attached would): tps drops for the rest of the run.
CASE=c16; source /work/wt24b/tests/corpus/heldout24/gen_h24b/common.sh
$TR $T24 --fmt titan --steps 2000 --log-every 50 --ckpt-dir ck --ckpt-every 1000 > out.log 2>&1 &
TRP=$!
waitfor "step:  600" out.log; P=$(envpids RANK=1); strace -f -q -o /dev/null -p $P & SP=$!; echo "strace $SP on $P $(date -u +%T)"
wait $TRP; echo "exit=$?"; kill $SP 2>/dev/null
