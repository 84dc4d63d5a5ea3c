#!/bin/bash
# torchrun 2 ranks in a private mount namespace whose /dev/shm is an 8 MiB tmpfs, litgpt-style, 2 DataLoader workers
# per rank (batches pass through /dev/shm); after step 1000 another process in that namespace fills /dev/shm (dd).
CASE=a02; PORT=43602; source /work/wt32b/tests/corpus/heldout32/gen_h32b/common.sh
(unshare -m --propagation private bash -c "mount -t tmpfs -o size=8m shm /dev/shm; cd $RUN; exec nice -n 10 $V/python -m torch.distributed.run --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint localhost:$PORT $T --style litgpt --steps 5000 --log-every 50 --workers 2 --persistent --eval-every 1000 --ckpt-dir out/pretrain --ckpt-every 1000" > out.log 2>&1 &)
waitfor "iter 1000 step 1000" out.log 300; P0=$(rankpid RANK=0); nsenter -t $P0 -m dd if=/dev/zero of=/dev/shm/.scratch-fill bs=1M count=16; log "filled via $P0"; nsenter -t $P0 -m df -h /dev/shm
waitgone 300
