#!/bin/bash
# torchrun 2 ranks, plain prints, python -X faulthandler; features np.memmap'ed from a per-run copy of the data file;
# after step 900 that file is truncated to 0 bytes (as a shared file replaced under a reader): the next page access is SIGBUS.
CASE=c04; PORT=38104; source /work/wt27b/tests/corpus/heldout27/gen_h27b/common.sh
cp /work/lab27b/data/feat.bin feat.bin
(TR --no-python $V/python -X faulthandler $T --data $PWD/feat.bin --style plain --steps 2400 --log-every 100 > out.log 2>&1 &)
waitfor "step 900/" out.log 400; truncate -s 0 feat.bin; log truncated; waitgone 200
