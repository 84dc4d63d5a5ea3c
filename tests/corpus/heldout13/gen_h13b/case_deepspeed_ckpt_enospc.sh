#!/bin/bash
# STORAGE: DeepSpeed ZeRO-2 (CPU accelerator, gloo, logger at INFO) saving engine checkpoints every 200
# steps into a checkpoint directory that is a 4 MiB tmpfs; a later save runs out of space (real ENOSPC).
CASE=deepspeed_ckpt_enospc; . "$(dirname "$0")/common.sh"
mkdir -p ds_ckpt && mount -t tmpfs -o size=4m tmpfs ds_ckpt
DS_ACCELERATOR=cpu $TR $G/ds_train.py --steps 800 --zero 2 --save-every 200 --ds-log-level info > out.log 2>&1; echo "rc=$?" > rc.txt
df -k ds_ckpt > df.txt; umount ds_ckpt
