#!/bin/bash
# torchrun 2 ranks, Composer-style; rank 0 appends a (padded) metrics CSV on a 16 MiB ext4 loop fs, which another
# process fills with dd after batch 600 -> ENOSPC on the metrics write. (As run: that dd stopped with ~680 KiB of the
# fs still free, so the metrics file kept growing; at ~batch 1650 a second 'dd bs=1k' by hand filled the rest.)
CASE=a04; PORT=41604; source /work/wt30b/tests/corpus/heldout30/gen_h30b/common.sh
M=$(mkloop a04 16)
(TR $T --style composer --steps 3000 --log-every 50 --metrics-file $M/metrics.csv --tag pad > out.log 2>&1 &)
waitfor "batch=600/" out.log 300; dd if=/dev/zero of=$M/fill bs=1M count=64 2>/dev/null; log filled
waitgone 300; rmloop a04
