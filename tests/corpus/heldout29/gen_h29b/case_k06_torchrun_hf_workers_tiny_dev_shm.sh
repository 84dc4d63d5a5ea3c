#!/bin/bash
# torchrun 2 ranks, HF-Trainer-like, DataLoader num_workers=2, batch 2048; run in a private mount namespace whose
# /dev/shm is a 1 MiB tmpfs (a container with a tiny shm): workers cannot pass batches through shared memory.
CASE=k06; PORT=40606; source /work/wt29b/tests/corpus/heldout29/gen_h29b/common.sh
unshare -m bash -c "mount -t tmpfs -o size=1m tmpfs /dev/shm; export OMP_NUM_THREADS=1; cd $RUN; nice -n 10 $V/python -m torch.distributed.run --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint localhost:$PORT $T --style hf --steps 600 --log-every 20 --workers 2 --batch 2048" > out.log 2>&1
