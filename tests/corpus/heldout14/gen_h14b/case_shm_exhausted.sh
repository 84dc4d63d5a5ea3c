#!/bin/bash
# NODE: the job runs in a private mount namespace whose /dev/shm is a 96 MiB tmpfs (a small node /dev/shm);
# after step 100 another tenant's file fills it (dd, leaving ~1 MiB), so the DataLoader workers can no
# longer allocate shared memory for their batches (each ~4.5 MiB).
if [ -z "${IN_NS:-}" ]; then IN_NS=1 exec unshare -m --propagation private bash "$0"; fi
CASE=shm_exhausted; . "$(dirname "$0")/common.sh"
mount -t tmpfs -o size=96m tmpfs /dev/shm
$TR $G/loop14.py --steps 600 --img 64 --bs 96 --workers 2 --log-every 25 --ckpt-every 100 > out.log 2>&1 &
waitfor "step 100/600" out.log 150
dd if=/dev/zero of=/dev/shm/tenant_cache.bin bs=1M count=95 2>/dev/null
wait; echo "rc=$?" > rc.txt; umount /dev/shm
