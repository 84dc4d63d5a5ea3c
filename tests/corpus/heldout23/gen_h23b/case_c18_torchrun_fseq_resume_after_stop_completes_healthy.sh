#!/bin/bash
# torchrun 2 ranks, fairseq-style; a first launch (not kept) is stopped (SIGTERM to torchrun) after the
# num_updates-1000 checkpoint; the relaunch (kept) loads the checkpoint and trains to the end. Nothing else injected.
CASE=c18; source /work/wt23b/tests/corpus/heldout23/gen_h23b/common.sh
$TR $T23 --fmt fseq --steps 2500 --epoch-steps 500 --log-every 50 --ckpt-dir ck --ckpt-every 500 --resume --eval-every 500 --eval-batches 300 > first.log 2>&1 &
TRP=$!; waitfor "Saved checkpoint ck/checkpoint3_1000" first.log; sleep 1; kill $TRP; wait $TRP; echo "first exit=$?"
sleep 3
$TR $T23 --fmt fseq --steps 2500 --epoch-steps 500 --log-every 50 --ckpt-dir ck --ckpt-every 500 --resume --eval-every 500 --eval-batches 300 > out.log 2>&1; echo "exit=$?"
