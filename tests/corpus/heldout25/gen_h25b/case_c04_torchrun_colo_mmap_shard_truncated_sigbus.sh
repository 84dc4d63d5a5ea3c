#!/bin/bash
# torchrun 2 ranks, ColossalAI-style, features read through np.memmap (--mmap) from a private copy of the data file;
# at step ~900 the file is truncated to 40% of its size (another job rewriting the shard in place): rank 1's next read
# of a page beyond the new end raises SIGBUS.
CASE=c04; source /work/wt25b/tests/corpus/heldout25/gen_h25b/common.sh
cp $D/feat.bin shard.bin
($TR $G/t25.py --data $RUN/shard.bin --mmap --style colo --steps 3000 --log-every 100 > out.log 2>&1 &)
waitfor "Step 900/" out.log 300
truncate -s 10240000 shard.bin; echo "truncated $(date -u +%T)"
for i in $(seq 1 100); do [ -z "$(envpids RANK=0)$(envpids RANK=1)" ] && break; sleep 2; done; sleep 5
