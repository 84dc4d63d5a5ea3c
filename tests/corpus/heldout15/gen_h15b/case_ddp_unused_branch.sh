#!/bin/bash
# APPLICATION: from step 60 rank 1 skips the aux head (a rank-dependent branch), so DDP (find_unused_parameters=False)
# never finishes the gradient reduction: "Expected to have finished reduction in the prior iteration". torchrun, CSV metrics.
CASE=ddp_unused_branch; source "$(dirname "$0")/common.sh"
$TR $G/t15.py --data $DATA --steps 150 --branch-at 60 --log-every 10 > out.log 2>&1
echo "exit=$?" >&2
