#!/bin/bash
# torchrun 2 ranks, Python-logging messages + tab-separated metric rows; the ranks np.memmap a private copy of the
# training shard; after step 500 the file is truncated to 64 KiB under them (as a concurrent re-sync would) -> SIGBUS
CASE=torchrun_tsv_sigbus; source /work/wt22b/tests/corpus/heldout22/gen_h22b/common.sh
mkdir dat; cp $D/shard1.bin dat/train.bin
$TR $G/t22.py --data dat/train.bin --fmt tsv --steps 1500 --log-every 50 --ckpt-dir ck --ckpt-every 250 > out.log 2>&1 &
waitfor "^500	" out.log; truncate -s 65536 dat/train.bin; echo "truncated $(date -u +%T)"
wait; echo exit=$?
