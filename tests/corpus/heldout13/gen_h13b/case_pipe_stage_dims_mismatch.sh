#!/bin/bash
# APPLICATION: pipeline config error: --stage-dims 128,96 builds the last stage with hidden size 96
# while stage 0 sends 128-wide activations.
CASE=pipe_stage_dims_mismatch; . "$(dirname "$0")/common.sh"
$TR $G/lm13.py --mode pipe --layers 4 --steps 600 --log-every 50 --jsonl --stage-dims 128,96 > out.log 2>&1; echo "rc=$?" > rc.txt
