#!/bin/bash
# STORAGE: torchrun, 2 processes, FSDP2 (fully_shard) on gloo, absl-style log lines, torch.distributed.checkpoint
# saves every 150 steps. LD_PRELOAD shim inject18.so: in rank 1 only, every write to a file under the step-450
# checkpoint directory fails with EIO (errno 5), as a failing disk/filesystem under that node's writes would.
CASE=dcp_save_eio; source "$(dirname "$0")/common.sh"
LD_PRELOAD=/work/lab18b/inject18.so INJ_RANK=1 INJ_PATH=checkpoint_0000450 INJ_ERRNO=5 \
  $TR $G/t18.py --fsdp --fmt absl --steps 900 --log-every 25 --ckpt-dir $RUN/ckpt --ckpt-every 150 > out.log 2>&1; echo "exit=$?" >&2
