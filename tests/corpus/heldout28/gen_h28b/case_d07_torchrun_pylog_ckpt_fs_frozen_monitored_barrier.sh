#!/bin/bash
# torchrun 2 ranks, Python logging, checkpoints every 400 by rank 0 to a 64 MiB ext4 loop fs; after the step-400 save
# the fs is frozen (fsfreeze -f): rank 0 blocks writing the step-800 checkpoint, rank 1 waits in
# monitored_barrier(60 s). Expected rank 1 to fail there, but non-zero ranks wait without a timeout: the output went
# silent, and out.log was copied by hand to kept.log (the kept log) 163 s after its last line. The fs was thawed after
# the 300 s wait below and the run then went on to finish (not part of the kept log).
CASE=d07; PORT=39607; source /work/wt28b/tests/corpus/heldout28/gen_h28b/common.sh
truncate -s 64M fs.img; mkfs.ext4 -q fs.img; M=/work/lab28b/mnt/d07; mkdir -p $M; mount -o loop fs.img $M; mkdir $M/ck
(TR $T --style pylog --steps 2400 --log-every 100 --ckpt-dir $M/ck --ckpt-every 400 --ckpt-pad-mb 4 --monitored-barrier 60 > out.log 2>&1 &)
waitfor "checkpoint step 400 saved" out.log 400; fsfreeze -f $M; log frozen
waitfor "monitoredBarrier\|timed out\|Timed out" out.log 300; log shown; sleep 30; fsfreeze -u $M; log thawed
waitgone 200; umount $M
