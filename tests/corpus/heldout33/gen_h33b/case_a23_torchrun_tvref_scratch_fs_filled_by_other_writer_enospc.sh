#!/bin/bash
# torchrun 2 ranks, torchvision-references-style, checkpoints (2 MiB padding) on a 48 MiB ext4 loop fs shared with
# another writer: after the epoch-2 checkpoint a dd fills the fs (another job's scratch file) -> the next save.
CASE=a23; PORT=44623; source /work/wt33b/tests/corpus/heldout33/gen_h33b/common.sh
M=$(mkloop a23scratch 48)
(TR $T --style tvref --steps 3000 --epoch-steps 300 --log-every 50 --eval-every 1 --ckpt-dir $M/out --ckpt-every 300 --ckpt-pad-mb 2 > out.log 2>&1 &)
waitfor "Epoch: \[2\]  \[  0" out.log 300; dd if=/dev/zero of=$M/other_job_scratch.bin bs=1M 2>/dev/null; log "filled $(df -h $M | tail -1)"
waitgone 200; rmloop a23scratch
