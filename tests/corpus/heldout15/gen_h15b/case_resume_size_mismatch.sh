#!/bin/bash
# APPLICATION: a first run (hidden 64, output not kept) leaves checkpoints; the kept run resumes from them with --hidden 96,
# and load_state_dict fails with size mismatches. torchrun, CSV.
CASE=resume_size_mismatch; source "$(dirname "$0")/common.sh"
$TR $G/t15.py --data $DATA --steps 60 --log-every 10 --ckpt-every 30 > first.log 2>&1
$TR $G/t15.py --data $DATA --steps 200 --log-every 10 --ckpt-every 30 --hidden 96 --resume > out.log 2>&1
echo "exit=$?" >&2
