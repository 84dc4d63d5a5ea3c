#!/bin/bash
# NODE: the job runs in a private mount namespace whose /dev/shm is a 96 MiB tmpfs (a small node /dev/shm);
# after step 100 another tenant's files fill it (dd, leaving ~1 MiB), so the DataLoader workers can no
# longer allocate shared memory for batches (each ~6 MiB).
CASE=shm_exhausted; . "$(dirname "$0")/common.sh"
export G V RUN TR
unshare -m --propagation private bash -c '
mount -t tmpfs -o size=96m tmpfs /dev/shm
. '$G'/common.sh 2>/dev/null; cd '$RUN'
$TR $G/loop14.py --steps 600 --img 64 --bs 96 --workers 2 --log-every 25 --ckpt-every 100 > out.log 2>&1 &
waitfor "step 100/600" out.log 150
dd if=/dev/zero of=/dev/shm/tenant_cache.bin bs=1M count=95 2>/dev/null
wait; echo "rc=$?" > rc.txt; umount /dev/shm'
